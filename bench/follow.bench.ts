/**
 * Following a big index (issue 33; not part of CI or `npm run bench`): blocks added to a kept SQLite index of the
 * scale chain by the real `outpoint serve`, 200 revealed at once (a catch-up) and 20 one at a time (following the
 * tip), against the same on a 100k-tx index built in the same run. One round per `[store] sqlite_cache_mb` value,
 * each on the chain's next blocks (the kept index grows by them), so settings compare on one index in one run.
 * Prints figures, never pass/fail.
 *
 *   BENCH_FOLLOW_INDEX=.bench-cache/scale-work/sqlite-big/index.db BENCH_FOLLOW_CACHE_MB=128,1024 npm run bench:follow
 * Settings (environment): BENCH_FOLLOW_INDEX (required: an index of the scale chain, kept by `BENCH_SCALE_KEEP=1 npm
 * run bench:scale`), BENCH_FOLLOW_CACHE_MB (auto: comma-separated rounds, each `auto` or MiB), BENCH_FOLLOW_WAIT_FREE=1 (start each
 * round once the bulk load's free pages are given back), BENCH_SCALE_CATCHUP_BLOCKS (200),
 * BENCH_SCALE_FOLLOW_BLOCKS (20), BENCH_SCALE_SMALL_TXS (100000), BENCH_SCALE_SEED (1), BENCH_SCALE_BLOCK_TXS (2000),
 * BENCH_SCALE_EVENT_LOG_HOURS (the service's [realtime] event_log_hours; default its own, 24).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';
import { freePort } from '../test/helpers/free-port.js';
import { ChainFiles } from './scale/block-files.js';
import { eventLogFromEnv, smallIndexRun, type RunContext } from './scale/engine-run.js';
import { chainDir, CACHE_ROOT, readMeta } from './scale/generate-chain.js';
import { catchUp, follow, median, waitForHeight, type IncrementalFigure } from './scale/incremental.js';
import { ServeProcess } from './scale/serve-process.js';
import { closeProbes } from './scale/service-probe.js';
import { StandInProcess } from './scale/stand-in-process.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const INDEX = process.env['BENCH_FOLLOW_INDEX'];
/** Rounds: a size in MiB, or `auto` (the service's own, sized to the index). */
const CACHES = (process.env['BENCH_FOLLOW_CACHE_MB'] ?? 'auto').split(',').filter(Boolean);
const CATCHUP = env('BENCH_SCALE_CATCHUP_BLOCKS', 200);
const FOLLOW = env('BENCH_SCALE_FOLLOW_BLOCKS', 20);
const SMALL_TXS = env('BENCH_SCALE_SMALL_TXS', 100_000);
const SEED = env('BENCH_SCALE_SEED', 1);
const BLOCK_TXS = env('BENCH_SCALE_BLOCK_TXS', 2000);
const WAIT_FREE = process.env['BENCH_FOLLOW_WAIT_FREE'] === '1';
const eventLog = eventLogFromEnv();

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const mib = (bytes: number): string => `${n(bytes / 2 ** 20)} MiB`;
const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');

/** The index's tip height and free pages, read without disturbing a service (read-only). */
function indexState(path: string): { height: number; freePages: number; pages: number } {
  const db = openSqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    const tip = db.prepare('SELECT height FROM tips').get() as { height: bigint | number } | undefined;
    if (!tip) throw new Error(`${path} has no tip: not an index`);
    return { height: Number(tip.height), freePages: Number(db.pragma('freelist_count', { simple: true })), pages: Number(db.pragma('page_count', { simple: true })) };
  } finally {
    db.close();
  }
}

const rate = (f: IncrementalFigure): number => f.blocks / f.seconds;
function describe(f: IncrementalFigure): string {
  return `${rate(f).toFixed(2)} blocks/s, ${n(f.txs / f.seconds)} tx/s${f.blockMs.length ? `, median ${n(median(f.blockMs))} ms per block` : ''}`;
}

export async function run(): Promise<void> {
  if (!INDEX || !existsSync(INDEX)) throw new Error('BENCH_FOLLOW_INDEX must name a kept SQLite index of the scale chain (BENCH_SCALE_KEEP=1 npm run bench:scale)');
  const dir = chainDir(SEED, BLOCK_TXS);
  if (!readMeta(dir)) throw new Error(`no scale chain in ${dir}: run npm run bench:scale first`);
  const chain = ChainFiles.open(dir);
  const start = indexState(INDEX);
  console.log(`follow bench: ${INDEX} at height ${n(start.height)} (${n(chain.txsThrough(start.height))} txs, ${mib(start.pages * 4096)}, ${n(start.freePages)} free pages), ` +
    `rounds sqlite_cache_mb ${CACHES.join(', ')}; ${new Date().toISOString()}, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${mib(totalmem())}, load average ${load()}`);
  const node = await StandInProcess.start(dir, start.height);
  const workDir = join(CACHE_ROOT, 'follow-work');
  mkdirSync(workDir, { recursive: true });
  try {
    const ctx: RunContext = {
      engine: 'sqlite', chain, node, tracked: readMeta(dir)!.tracked, workDir, freePort, catchUpBlocks: CATCHUP, followBlocks: FOLLOW,
      newDatabase: () => Promise.reject(new Error('SQLite only')), ...eventLog,
    };
    const small = await smallIndexRun(ctx, SMALL_TXS);
    console.log(`  reference, a ${n(small.indexTxs)}-tx index (default cache): ${CATCHUP} at once ${describe(small.catchUp)}; ${FOLLOW} one at a time ${describe(small.follow)} (load average ${load()})`);
    for (const cacheMb of CACHES) {
      const { height } = indexState(INDEX);
      if (chain.tipHeight < height + CATCHUP + FOLLOW) throw new Error(`the chain ends at ${chain.tipHeight}: no ${CATCHUP + FOLLOW} blocks left after ${height}`);
      await node.reveal(height);
      const serve = new ServeProcess({
        configPath: join(workDir, 'big.toml'), storeUrl: `sqlite:${INDEX}`, dataDir: join(workDir, 'data'), httpPort: await freePort(),
        rpcUrl: node.url, pollMs: 20, logPath: join(workDir, `big-${cacheMb}.log`), ...(cacheMb === 'auto' ? {} : { sqliteCacheMb: Number(cacheMb) }), ...eventLog,
      });
      try {
        await waitForHeight(serve, height, 250, 3_600_000);
        // A bulk load's free pages are given back in the background (at most a fifth of the time; at 20M about half an
        // hour): with BENCH_FOLLOW_WAIT_FREE=1 timed rounds start once they are, else beside it (printed).
        while (WAIT_FREE && indexState(INDEX).freePages > 0) await new Promise((r) => setTimeout(r, 2000));
        const freeBefore = indexState(INDEX).freePages;
        const caught = await catchUp(serve, node, chain, height, CATCHUP);
        const followed = await follow(serve, node, chain, height + CATCHUP, FOLLOW);
        const peak = serve.peakRssBytes();
        console.log(`  sqlite_cache_mb ${cacheMb}, index of ${n(chain.txsThrough(height))} txs: ${CATCHUP} at once ${describe(caught)} = ` +
          `${(rate(caught) / rate(small.catchUp)).toFixed(2)}x the small index; ${FOLLOW} one at a time ${describe(followed)} = ` +
          `${(rate(followed) / rate(small.follow)).toFixed(2)}x (target >= 0.5 both); peak RSS ${mib(peak)} (target < 2 GiB); ` +
          `free pages ${n(freeBefore)} -> ${n(indexState(INDEX).freePages)}; load average ${load()}`);
      } finally {
        await serve.stop();
      }
    }
  } finally {
    await node.stop();
    await chain.close();
    closeProbes();
  }
}

await run();
