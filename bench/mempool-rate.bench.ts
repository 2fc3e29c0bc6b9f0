/**
 * The mempool at mainnet rates (issue 33; not part of CI or `npm run bench`): the real `outpoint serve` on an index
 * of the scale chain (bench/scale, 2M txs by default) follows the stand-in node's mempool while txs arrive at a steady
 * 10 tx/s, then a burst of 100 tx/s for a minute, then steady again. The service finds them as in production: the
 * poll notifier's getbestblockhash + getmempoolinfo batch every poll_ms, then getrawmempool (the whole txid list)
 * diffed against the store and the new txs fetched with batched getrawtransaction. Prints figures, no pass/fail:
 * - how far the index is behind the node: per tx, from the node having it to the store's mempool count including
 *   it (read from the store every 50 ms), against one poll interval; the count difference sampled each second;
 * - realtime: a pusher-js client on the blockchain channel (tx_update) and the 64 watched addresses' channels
 *   (balance_update; every tx pays one), from the node having the tx to the event arriving (target p99 < 250 ms);
 * - the service's CPU share and RSS, per phase.
 *
 *   npm run bench:mempool-rate
 * Settings (environment): BENCH_MEMPOOL_TXS (2000000: the index), BENCH_MEMPOOL_ENGINE (sqlite | postgres),
 * BENCH_MEMPOOL_INDEX (a SQLite file: used when it exists, else built there and kept; it must hold the same
 * BENCH_MEMPOOL_TXS), BENCH_SCALE_KEEP=1 (keep the SQLite index built without BENCH_MEMPOOL_INDEX), BENCH_MEMPOOL_POLL_MS
 * (100: the service's poll_ms), BENCH_MEMPOOL_SETTLE_S (1200: the longest wait for the service to give back the free
 * pages a bulk load left, before the schedule), BENCH_MEMPOOL_RATE (10), BENCH_MEMPOOL_BURST_RATE (100), BENCH_MEMPOOL_STEADY_S (150:
 * before the burst, and again after it), BENCH_MEMPOOL_BURST_S (60), BENCH_MEMPOOL_IDLE_S (10: no txs first, the CPU baseline), BENCH_MEMPOOL_PREFILL (20000: txs in the mempool before the schedule), BENCH_MEMPOOL_CPU_PROF (a directory: the measured
 * service runs with --cpu-prof and writes its profile there on stop).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { statOf } from './process-cpu.js';
import { ChainFiles } from './scale/block-files.js';
import { CACHE_ROOT, ensureChain } from './scale/generate-chain.js';
import { closeProbes, indexedHeight } from './scale/service-probe.js';
import { StandInProcess } from './scale/stand-in-process.js';
import { CountProbe, storeCounter } from './mempool-rate/count-probe.js';
import { phaseFigures, printFigures, type SecondSample } from './mempool-rate/figures.js';
import { settle, startIndex, type Engine } from './mempool-rate/rate-index.js';
import { RealtimeWatch } from './mempool-rate/realtime-watch.js';
import { drive, scheduled, totalSeconds, type Phase } from './mempool-rate/schedule.js';
import { endAfterFigures } from './scale/end-after-figures.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const NTX = env('BENCH_MEMPOOL_TXS', 2_000_000);
const ENGINE = (process.env['BENCH_MEMPOOL_ENGINE'] ?? 'sqlite') as Engine;
const KEPT = process.env['BENCH_MEMPOOL_INDEX'];
const POLL_MS = env('BENCH_MEMPOOL_POLL_MS', 100);
const STEADY_S = env('BENCH_MEMPOOL_STEADY_S', 150);
const PREFILL = env('BENCH_MEMPOOL_PREFILL', 20_000);
const PHASES: Phase[] = [
  // No txs: what following an unchanging mempool costs (the poll every poll_ms), the baseline of the CPU figures.
  { label: 'idle', rate: 0, seconds: env('BENCH_MEMPOOL_IDLE_S', 10) },
  { label: 'steady', rate: env('BENCH_MEMPOOL_RATE', 10), seconds: STEADY_S },
  { label: 'burst', rate: env('BENCH_MEMPOOL_BURST_RATE', 100), seconds: env('BENCH_MEMPOOL_BURST_S', 60) },
  { label: 'steady again', rate: env('BENCH_MEMPOOL_RATE', 10), seconds: STEADY_S },
];
const CPU_PROF = process.env['BENCH_MEMPOOL_CPU_PROF'];
const NETWORK = 'BTCTEST';
/** How often the count probe reads the store: the resolution of the index-lag figure. */
const PROBE_MS = 50;
/** The schedule's tick: at 100 tx/s, 2-3 txs per tick. */
const TICK_MS = 25;

/** "Quiet": the service's CPU share stays under this for QUIET_SECONDS in a row. */
const QUIET_SHARE = 0.15;
const QUIET_SECONDS = 3;

/** Seconds until the service is quiet (at most `maxSeconds`). */
async function quietAfter(pid: number, maxSeconds: number): Promise<number> {
  const started = performance.now();
  let calm = 0;
  let last = procSample(pid).cpuSeconds;
  while (calm < QUIET_SECONDS && performance.now() - started < maxSeconds * 1000) {
    await delay(1000);
    const now = procSample(pid).cpuSeconds;
    calm = now - last < QUIET_SHARE ? calm + 1 : 0;
    last = now;
  }
  return (performance.now() - started) / 1000;
}

const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ');

function procSample(pid: number): { cpuSeconds: number; rssBytes: number } {
  const cpu = statOf(String(pid));
  let rssBytes = 0;
  try {
    rssBytes = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    // exited
  }
  return { cpuSeconds: (cpu?.micros ?? 0) / 1e6, rssBytes };
}

async function waitUntil(what: string, timeoutMs: number, done: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await done()) return true;
    await delay(100);
  }
  console.log(`  (gave up waiting after ${timeoutMs / 1000} s: ${what})`);
  return false;
}

export async function run(): Promise<void> {
  console.log(`mempool-rate bench: ${ENGINE}, ${NTX.toLocaleString('en-US')}-tx index, poll_ms ${POLL_MS}, ${PREFILL} txs in the mempool before a schedule of ${PHASES.map((p) => `${p.rate} tx/s x ${p.seconds} s`).join(', ')}; ` +
    `${new Date().toISOString()}, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${load()}`);
  const dir = ensureChain({ seed: 1, blockTxs: 2000, txs: NTX, extraBlocks: 0 });
  const chain = ChainFiles.open(dir);
  const height = chain.heightForTxs(NTX);
  // A new seed each run: a kept index remembers the last run's txs (evicted at start, as the node no longer has them).
  const node = await StandInProcess.start(dir, height, Date.now() % 2 ** 31);
  const workDir = join(CACHE_ROOT, 'mempool-rate-work');
  mkdirSync(workDir, { recursive: true });
  const index = await startIndex({ engine: ENGINE, node, height, pollMs: POLL_MS, workDir, keep: process.env['BENCH_SCALE_KEEP'] === '1',
    ...(CPU_PROF ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] } : {}), ...(KEPT ? { keptFile: KEPT } : {}) });
  let watch: RealtimeWatch | null = null;
  try {
    const { serve } = index;
    const at = await indexedHeight(serve.baseUrl, NETWORK);
    if (at !== height) throw new Error(`the index is at height ${at}, the chain's ${NTX}-tx prefix ends at ${height}: BENCH_MEMPOOL_INDEX holds another size`);
    console.log(`  index: ${chain.txsThrough(height).toLocaleString('en-US')} txs to height ${height}, ${index.reused ? `reused (${KEPT})` : `built in ${Math.round(index.buildSeconds)} s`}; service log ${join(workDir, `${ENGINE}-run`, 'serve.log')}`);
    const settled = await settle(index, env('BENCH_MEMPOOL_SETTLE_S', 1200) * 1000);
    if (settled.before > 0) console.log(`  free pages the bulk load left: ${settled.before} at start, ${settled.after} after waiting ${Math.round(settled.seconds)} s for the service to give them back`);
    const watched = await node.mempoolWatched();
    const counter = await storeCounter(index.storeUrl, NETWORK);
    // A kept index still holds the last run's mempool until the service finds the node without it.
    await waitUntil('the index to drop the last run\'s mempool', 120_000, async () => (await counter.count()) === 0);
    // A mainnet mempool is rarely empty (tens of thousands of txs most days): every poll's getrawmempool diff reads
    // the whole txid list, so the schedule runs on a mempool of this size, added (and indexed) before it starts.
    const prefillStart = performance.now();
    for (let done = 0; done < PREFILL; done += 1000) await node.addMempool(Math.min(1000, PREFILL - done));
    await waitUntil('the index to hold the prefilled mempool', 900_000, async () => (await counter.count()) >= PREFILL);
    if (PREFILL > 0) console.log(`  mempool prefilled with ${PREFILL} txs, in the index ${Math.round((performance.now() - prefillStart) / 1000)} s later`);
    const probe = new CountProbe(counter, PROBE_MS);
    watch = await RealtimeWatch.open(Number(new URL(serve.baseUrl).port), 'outpoint', NETWORK, watched);
    console.log(`  pusher-js subscribed to blockchain_update_btctest and ${watched.length} address channels; load average ${load()}`);
    // The prefill's own work goes on after its txs are in the index (their events rendered, logged and sent): the
    // schedule starts once the service is quiet, so its phases measure the steady state, and the drain is shown apart.
    const quiet = await quietAfter(serve.pid, 300);
    console.log(`  service quiet (under ${QUIET_SHARE * 100} % of a core for ${QUIET_SECONDS} s) ${quiet.toFixed(0)} s after the prefill was indexed`);
    const seconds: SecondSample[] = [{ second: 0, phase: 0, nodeCount: PREFILL, indexCount: PREFILL, ...procSample(serve.pid) }];
    const peakBefore = serve.peakRssBytes();
    const loadStart = load();
    const added = await drive(PHASES, (count) => node.addMempool(count), TICK_MS, (nodeCount, second) => {
      seconds.push({ second, phase: scheduled(PHASES, second - 0.5).phase, nodeCount: PREFILL + nodeCount, indexCount: probe.latest, ...procSample(serve.pid) });
    });
    const loadEnd = load();
    await waitUntil('every tx in the index and on realtime', 120_000, () => probe.latest >= PREFILL + added.length && watch!.txUpdates.size >= added.length && watch!.balanceUpdates.size >= added.length);
    await probe.stop();
    const figures = phaseFigures(PHASES, added, probe, watch, seconds, POLL_MS, PREFILL);
    console.log(`  ${added.length} txs added in ${totalSeconds(PHASES)} s; load average at the start ${loadStart}, at the end ${loadEnd}`);
    printFigures(figures, POLL_MS);
    console.log(`  peak RSS of outpoint serve: ${Math.round(serve.peakRssBytes() / 2 ** 20)} MiB (${Math.round(peakBefore / 2 ** 20)} MiB before the schedule)`);
    const out = join(CACHE_ROOT, `mempool-rate-results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    // Per tx (node time, index time, tx_update and balance_update arrivals; ms since the epoch): the late ones can then
    // be matched against the service's CPU profile (BENCH_MEMPOOL_CPU_PROF), whose timestamps are the same clock's.
    const perTx = added.map((tx, i) => [tx.at, probe.reachedAt(PREFILL + i + 1), watch!.txUpdates.get(tx.txid) ?? null, watch!.balanceUpdates.get(tx.txid) ?? null]);
    writeFileSync(out, JSON.stringify({ engine: ENGINE, txs: NTX, pollMs: POLL_MS, prefill: PREFILL, phases: PHASES, loadStart, loadEnd, figures, seconds, peakRss: serve.peakRssBytes(), perTxColumns: ['nodeAt', 'indexAt', 'txUpdateAt', 'balanceUpdateAt'], perTx }));
    console.log(`  figures as JSON: ${out}`);
  } finally {
    watch?.close();
    await index.stop();
    await node.stop();
    await chain.close();
    closeProbes();
  }
}

await run();
endAfterFigures();
