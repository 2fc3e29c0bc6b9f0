/**
 * The long fuzz run of issue 27: the CI test's loop (test/helpers/fuzz/fuzz-run.ts) against the same `outpoint serve`
 * target, for many more cases. `npm run bench:fuzz -- --cases 100000 [--seed N] [--case n]` (or BENCH_FUZZ_CASES,
 * BENCH_FUZZ_SEED); the seed defaults to a random one, printed first so a failure can be replayed. Exits 1 on the
 * first failure (a 5xx, a crash, an error logged, get_info not answering), with the case and how to replay it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cpus, loadavg, totalmem } from 'node:os';
import { runFuzz } from '../test/helpers/fuzz/fuzz-run.js';
import { startFuzzTarget } from '../test/helpers/fuzz/fuzz-target.js';

const { values } = parseArgs({ options: { cases: { type: 'string' }, seed: { type: 'string' }, case: { type: 'string' } } });
const cases = Number(values.cases ?? process.env['BENCH_FUZZ_CASES'] ?? 20_000);
const seed = Number(values.seed ?? process.env['BENCH_FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const only = values.case === undefined ? undefined : Number(values.case);

console.log(`fuzz bench: seed ${seed}, ${only === undefined ? `${cases} cases` : `case ${only}`}; ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ` +
  `${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const target = await startFuzzTarget();
let failed = false;
try {
  const report = await runFuzz(target, { seed, cases, ...(only === undefined ? {} : { only }), batch: 500, progress: (line) => console.log(line) });
  const rss = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${target.serve.child.pid}/status`, 'utf8'))?.[1];
  console.log(`fuzz: ${report.cases} cases (${Object.entries(report.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}; ${report.p2pSkipped} P2P cases ` +
    `skipped with no session open, ${report.p2pSessions} sessions) in ${(report.ms / 1000).toFixed(0)} s, 0 crashes, 0 answers 5xx; ` +
    `serve peak RSS ${rss ? `${(Number(rss) / 1024).toFixed(0)} MiB` : '?'}`);
  console.log(`answers: ${JSON.stringify(report.answers)}`);
} catch (error) {
  failed = true;
  console.error(String((error as Error).message ?? error));
} finally {
  await target.close();
}
process.exitCode = failed ? 1 : 0;
