/**
 * Outpoint's Electrum server against an older checkout of itself, alternating: both served as `outpoint serve
 * --api-only` on the cached bench index (one process each, the answer cache off on this side: "Cold"), each method of
 * the bench driven at c=32 over the 500 sample addresses for BENCH_SECONDS on one and then the other, the order
 * swapped every repetition, CPU per request printed. A check of the main bench's before/after figures
 * (docs/benchmarks.md, "Electrum against Fulcrum") in which both sides see the same minutes of the machine's load.
 *
 *   ELECTRUM_BENCH_BEFORE=/path/to/older/checkout node --import tsx bench/electrum-before-after.ts
 * Settings: BENCH_SECONDS (6), ELECTRUM_AB_REPS (4). The older checkout needs its own node_modules and `npm run build`.
 */
import { loadavg } from 'node:os';
import { addressToScript } from '../src/chains/addressing.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { BENCH_INDEX, benchParams, chainNode, chainSummary } from './bench-chain.js';
import { electrumScripthash } from './electrum-client.js';
import { measureElectrumInChild } from './electrum-load.js';
import { serveElectrum } from './electrum-serve-process.js';

const BEFORE = process.env['ELECTRUM_BENCH_BEFORE'];
if (!BEFORE) throw new Error('set ELECTRUM_BENCH_BEFORE to an older checkout');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 6);
const REPS = Number(process.env['ELECTRUM_AB_REPS'] ?? 4);
const METHODS = ['get_balance', 'get_history', 'listunspent'];

const samples = chainSummary().sample_addresses.map((a) => electrumScripthash(addressToScript(benchParams, a)));
const store = new SqliteStore({ path: BENCH_INDEX });
const tip = (await store.network('LTCTEST').getTip())!.height;
await store.close();
const node = await chainNode(['-maxtipage=315360000']);
const cold = await serveElectrum(node.rpcPort, tip, 1, { name: 'Cold', electrumConfig: 'answer_cache_mb = 0' });
const before = await serveElectrum(node.rpcPort, tip, 1, { root: BEFORE, name: 'Before' });
const cpu: Record<string, number[]> = {};
try {
  for (let rep = 0; rep < REPS; rep++) {
    for (const method of METHODS) {
      for (const served of rep % 2 ? [before, cold] : [cold, before]) {
        const from = served.cpuMicros();
        const r = await measureElectrumInChild({
          host: served.host, port: served.port, method: `blockchain.scripthash.${method}`, paramsList: samples.map((h) => [h]), connections: 32, seconds: SECONDS,
        });
        (cpu[`${served.name} ${method}`] ??= []).push(Math.round((served.cpuMicros() - from) / Math.max(1, r.total)));
      }
    }
    console.log(`repetition ${rep + 1} of ${REPS} done, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  }
  for (const method of METHODS) console.log(`${method.padEnd(12)} µs/req  Cold ${cpu[`Cold ${method}`]!.join(', ')}  Before ${cpu[`Before ${method}`]!.join(', ')}`);
} finally {
  await cold.stop();
  await before.stop();
  await node.stop();
}
