/**
 * Scale benchmark (issue 19; not part of CI or `npm run bench`): the real `outpoint serve` indexing a synthetic,
 * mainnet-shaped Bitcoin regtest chain (bench/scale/chain-generator.ts, generated once into .bench-cache) served by a
 * stand-in bitcoind (bench/scale/stand-in-node.ts, its own process). Prints figures, never pass/fail:
 * - the stand-in node's serving rate and the indexer's fetch-and-parse ceiling (the node is not the bottleneck);
 * - the initial sync from an empty store to address queries answering at the tip: tx/s per million transactions,
 *   any deferred index build spread over the load, the phases the service logs, the total;
 * - blocks added to the finished index, all at once and one at a time, against the same on a small index;
 * - peak RSS of the service, bytes on disk per table and index after a clean stop.
 *
 *   npm run bench:scale
 * Settings (environment): BENCH_SCALE_TXS (2000000), BENCH_SCALE_ENGINES (sqlite; sqlite,postgres), BENCH_SCALE_SEED
 * (1), BENCH_SCALE_BLOCK_TXS (2000, mean txs per block), BENCH_SCALE_CATCHUP_BLOCKS (200), BENCH_SCALE_FOLLOW_BLOCKS
 * (20), BENCH_SCALE_SMALL_TXS (100000, the reference index), BENCH_SCALE_CEILING_TXS (1000000), BENCH_SCALE_KEEP=1
 * (keep the SQLite index file), BENCH_SCALE_RAW_TXS (store | node: the service's [store] raw_txs), BENCH_SCALE_PG_SETTINGS
 * (the PostgreSQL server's settings, name=value,…; default shared_buffers=1GB,max_wal_size=4GB), BENCH_SCALE_EVENT_LOG_HOURS
 * (the service's [realtime] event_log_hours; default its own, 24), BENCH_SCALE_NODE_ARGS (Node.js options of the service,
 * space-separated: e.g. --trace-gc, whose lines go to its serve.log).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { ChainFiles } from './scale/block-files.js';
import { bigRun, eventLogFromEnv, smallIndexRun, type BigRun, type Engine, type IncrementalPair, type RunContext } from './scale/engine-run.js';
import { fetchParseCeiling, servingRate } from './scale/fetch-rates.js';
import { CACHE_ROOT, ensureChain, readMeta } from './scale/generate-chain.js';
import { median } from './scale/incremental.js';
import { closeProbes } from './scale/service-probe.js';
import { StandInProcess } from './scale/stand-in-process.js';
import { sizeTable } from './scale/store-sizes.js';
import { endAfterFigures } from './scale/end-after-figures.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const NTX = env('BENCH_SCALE_TXS', 2_000_000);
const ENGINES = (process.env['BENCH_SCALE_ENGINES'] ?? 'sqlite').split(',').filter(Boolean) as Engine[];
const SEED = env('BENCH_SCALE_SEED', 1);
const BLOCK_TXS = env('BENCH_SCALE_BLOCK_TXS', 2000);
const CATCHUP = env('BENCH_SCALE_CATCHUP_BLOCKS', 200);
const FOLLOW = env('BENCH_SCALE_FOLLOW_BLOCKS', 20);
const SMALL_TXS = env('BENCH_SCALE_SMALL_TXS', 100_000);
const CEILING_TXS = env('BENCH_SCALE_CEILING_TXS', 1_000_000);
const RAW_TXS = process.env['BENCH_SCALE_RAW_TXS'] as 'store' | 'node' | undefined;
// A server sized for tens of GB: the helper's defaults (128 MB of shared buffers, 1 GB of WAL between checkpoints)
// are a test server's.
const PG_SETTINGS = Object.fromEntries((process.env['BENCH_SCALE_PG_SETTINGS'] ?? 'shared_buffers=1GB,max_wal_size=4GB')
  .split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const mib = (bytes: number): string => `${n(bytes / 2 ** 20)} MiB`;
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

function printChain(dir: string, chain: ChainFiles, tipHeight: number): void {
  const meta = readMeta(dir)!;
  const s = meta.stats;
  const txs = chain.txsThrough(tipHeight);
  let bytes = 0;
  for (let h = 0; h <= tipHeight; h++) bytes += chain.size(h);
  console.log(`  chain: ${dir} (${meta.network}, seed ${meta.seed}, generated once: ${n(meta.txs)} txs in ${n(meta.tipHeight + 1)} blocks, ` +
    `${n(meta.generateSeconds)} s = ${n(meta.txs / meta.generateSeconds)} tx/s, ${(meta.bytes / 2 ** 30).toFixed(2)} GiB, ${n(meta.bytes / meta.txs)} B/tx)`);
  console.log(`  indexed here: heights 0..${n(tipHeight)}, ${n(txs)} txs, ${mib(bytes)} of blocks (${n(bytes / txs)} B/tx)`);
  console.log(`  whole chain's shape: ${s.meanInputs.toFixed(2)} inputs and ${s.meanOutputs.toFixed(2)} outputs per tx, ${pct(s.witnessTxShare)} segwit txs, ` +
    `${n(s.payouts)} 5,000-output payouts, ${n(s.opReturnTxs)} OP_RETURN txs, ${n(s.addresses)} addresses, ${n(s.liveOutputs)} unspent outputs at its tip; ` +
    `hottest addresses received ${s.topAddressOutputs.slice(0, 3).map(n).join(', ')} outputs`);
  console.log(`  spent outputs' age: ${Object.entries(s.spendAges).map(([k, v]) => `${k} ${pct(v)}`).join(', ')}`);
  console.log(`  outputs created between an output and its spend: ${Object.entries(s.spendDistances).map(([k, v]) => `${k} ${pct(v)}`).join(', ')}`);
}

function incrementalLine(label: string, big: IncrementalPair['catchUp'], small: IncrementalPair['catchUp'], bigTxs: number, smallTxs: number): void {
  const rate = (f: IncrementalPair['catchUp']): string => `${(f.blocks / f.seconds).toFixed(2)} blocks/s (${n(f.txs / f.seconds)} tx/s${f.blockMs.length ? `, median ${n(median(f.blockMs))} ms per block` : ''})`;
  const ratio = big.blocks / big.seconds / (small.blocks / small.seconds);
  console.log(`    ${label}: on the ${n(bigTxs)}-tx index ${rate(big)}; on a ${n(smallTxs)}-tx index ${rate(small)}; ` +
    `big/small ${ratio.toFixed(2)} in blocks/s, ${(big.txs / big.seconds / (small.txs / small.seconds)).toFixed(2)} in tx/s (target >= 0.5)`);
}

function printEngine(engine: Engine, small: IncrementalPair, big: BigRun): void {
  const { curve } = big;
  console.log(`  [${engine}]`);
  console.log(`    initial sync, empty store to address queries answering at the tip: ${n(big.readySeconds)} s, ${n(curve.txs / big.readySeconds)} tx/s over the whole load`);
  console.log(`    phases logged: ${big.phases.length ? big.phases.map((p) => `${p.phase} ${n((p.to - p.from) / 1000)} s`).join(', ') : 'none (one incremental sync, no bulk phases)'}` +
    (big.finished ? `; sync finished line: ${['seconds', 'txPerSecond', 'waitingSeconds', 'writingSeconds'].map((k) => `${k}=${big.finished![k]}`).join(' ')}` : ''));
  curve.perMillion.forEach((m, i) => {
    console.log(`    million ${i + 1}${m.txs !== 1_000_000 ? ` (${n(m.txs)} txs)` : ''}: ${n(m.txPerSecond)} tx/s (load ${m.loadSeconds.toFixed(1)} s + index build share ${m.buildSeconds.toFixed(1)} s)`);
  });
  const full = curve.perMillion.filter((m) => m.txs >= 500_000);
  if (full.length >= 2) {
    const ratio = full[full.length - 1]!.txPerSecond / full[0]!.txPerSecond;
    console.log(`    last million / first million: ${ratio.toFixed(2)} (target >= 0.70)`);
  }
  incrementalLine(`${small.catchUp.blocks} blocks revealed at once`, big.catchUp, small.catchUp, big.indexTxs, small.indexTxs);
  incrementalLine(`${small.follow.blocks} blocks one at a time`, big.follow, small.follow, big.indexTxs, small.indexTxs);
  const at = big.peakRssAt;
  console.log(`    peak RSS of outpoint serve: ${mib(big.peakRssLoad)} by the end of the initial sync (highest sample ${n(at.seconds)} s after start` +
    `${at.height !== null ? `, after height ${n(at.height)} was logged` : ', before the first progress line'}), ${mib(big.peakRssCatchUp)} by the end of the blocks added at once, ${mib(big.peakRss)} in all (target < 2 GiB)`);
  if (big.cluster) {
    const c = big.cluster;
    console.log(`    PostgreSQL server: peak RSS ${mib(c.rssBytes)} (private memory of every process + shared buffers once, ${n(c.rssAt)} s after start); ` +
      `data directory at most ${mib(c.diskBytes)} (${n(c.diskAt)} s after start)`);
  }
  const indexedTxs = big.indexTxs + big.catchUp.txs + big.follow.txs;
  console.log(`    on disk after a clean stop (exit ${big.exitCode}): ${mib(big.diskBytes)}, ${n(big.diskBytes / indexedTxs)} B/tx over ${n(indexedTxs)} txs; by table and index:`);
  for (const line of sizeTable(big.sizes, indexedTxs)) console.log(line);
  console.log(`    balances of the tracked addresses at the tip: ${big.balanceMismatches.length === 0 ? 'equal to the generator\'s' : `DIFFERENT: ${big.balanceMismatches.join('; ')}`}`);
  if (big.errors.length) console.log(`    errors logged: ${big.errors.length}, first: ${big.errors[0]}`);
  console.log(`    service log: ${big.logPath}; load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

export async function run(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`scale bench: ${n(NTX)} txs, engines ${ENGINES.join(',')}${RAW_TXS ? `, raw_txs = "${RAW_TXS}"` : ''}, ${new Date().toISOString()}, node ${process.version}, ` +
    `${cpus().length} x ${cpu}, ${mib(totalmem())}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const dir = ensureChain({ seed: SEED, blockTxs: BLOCK_TXS, txs: NTX, extraBlocks: CATCHUP + FOLLOW });
  const chain = ChainFiles.open(dir);
  const tipHeight = chain.heightForTxs(NTX);
  printChain(dir, chain, tipHeight);
  const node = await StandInProcess.start(dir, tipHeight);
  const workDir = join(CACHE_ROOT, 'scale-work');
  mkdirSync(workDir, { recursive: true });
  let pg: { urlFor(db: string): string; url: string; stop(): Promise<void> } | null = null;
  try {
    const ceilingHeight = chain.heightForTxs(Math.min(NTX, CEILING_TXS));
    const served = await servingRate(node.url, chain, ceilingHeight);
    const ceiling = await fetchParseCeiling(node.url, ceilingHeight);
    console.log(`  stand-in node alone: ${n(served.txs / served.seconds)} tx/s, ${n(served.bytes / served.seconds / 1e6)} MB/s of blocks; ` +
      `indexer fetch + parse ceiling: ${n(ceiling.txs / ceiling.seconds)} tx/s (first ${n(ceiling.txs)} txs; the node serves ${(served.seconds > 0 ? ceiling.seconds / served.seconds : 0).toFixed(1)}x faster)`);
    if (ENGINES.includes('postgres')) {
      const { startPostgres } = await import('../test/helpers/postgres-server.js');
      pg = await startPostgres({ settings: PG_SETTINGS });
      console.log(`  PostgreSQL server settings: ${Object.entries(PG_SETTINGS).map(([k, v]) => `${k}=${v}`).join(', ')} (and the test helper's fsync=off, synchronous_commit=off, full_page_writes=off)`);
    }
    const results: Record<string, unknown> = {};
    for (const engine of ENGINES) {
      const ctx: RunContext = {
        engine, chain, node, tracked: readMeta(dir)!.tracked, workDir, freePort, catchUpBlocks: CATCHUP, followBlocks: FOLLOW,
        ...(RAW_TXS ? { rawTxs: RAW_TXS } : {}), ...eventLogFromEnv(),
        ...(process.env['BENCH_SCALE_NODE_ARGS'] ? { nodeArgs: process.env['BENCH_SCALE_NODE_ARGS'].split(' ').filter(Boolean) } : {}),
        newDatabase: async (name) => {
          const { default: pgModule } = await import('pg');
          const admin = new pgModule.Client({ connectionString: pg!.url });
          await admin.connect();
          await admin.query(`DROP DATABASE IF EXISTS ${name}`);
          await admin.query(`CREATE DATABASE ${name}`);
          await admin.end();
          return pg!.urlFor(name);
        },
      };
      const small = await smallIndexRun(ctx, SMALL_TXS);
      const big = await bigRun(ctx, NTX);
      printEngine(engine, small, big);
      results[engine] = { small, big: { ...big, sizes: big.sizes } };
    }
    const out = join(CACHE_ROOT, `scale-results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(out, JSON.stringify({ txs: NTX, seed: SEED, blockTxs: BLOCK_TXS, served, ceiling, results }, null, 1));
    console.log(`  figures as JSON: ${out}`);
  } finally {
    await pg?.stop();
    await node.stop();
    await chain.close();
    closeProbes();
  }
}

await run();
endAfterFigures();
