/**
 * A CPU profile of Outpoint's Electrum server under the bench's load (docs/benchmarks.md, "Electrum against Fulcrum"):
 * `outpoint serve --api-only` on the cached index of the bench chain with `node --cpu-prof`, each method of
 * ELECTRUM_PROFILE_METHODS driven at c=32 over the 500 sample addresses for BENCH_SECONDS, then the server stopped so
 * that Node writes its .cpuprofile into ELECTRUM_PROFILE_DIR (one file per process; summarise with any .cpuprofile
 * reader). No Fulcrum: this is for finding where the time goes, not for the figures.
 *
 *   ELECTRUM_PROFILE_DIR=/tmp/prof node --import tsx bench/electrum-profile.ts
 * Settings: BENCH_SECONDS (10), ELECTRUM_BENCH_PROCESSES (1), ELECTRUM_BENCH_CONNECTIONS (32), ELECTRUM_PROFILE_METHODS
 * (get_history by default; a comma list of method names), ELECTRUM_PROFILE_CACHE_MB (`[electrum] answer_cache_mb`; 0:
 * every answer read from the index).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { addressToScript } from '../src/chains/addressing.js';
import { benchParams, chainNode, chainSummary } from './bench-chain.js';
import { electrumScripthash } from './electrum-client.js';
import { measureElectrumInChild } from './electrum-load.js';
import { serveElectrum } from './electrum-serve-process.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { BENCH_INDEX } from './bench-chain.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const PROCESSES = Number(process.env['ELECTRUM_BENCH_PROCESSES'] ?? 1);
const CONNECTIONS = Number(process.env['ELECTRUM_BENCH_CONNECTIONS'] ?? 32);
const DIR = resolve(process.env['ELECTRUM_PROFILE_DIR'] ?? 'electrum-profile');
const METHODS = (process.env['ELECTRUM_PROFILE_METHODS'] ?? 'blockchain.scripthash.get_history').split(',');
const CACHE_MB = process.env['ELECTRUM_PROFILE_CACHE_MB'];

const samples = chainSummary().sample_addresses.map((a) => electrumScripthash(addressToScript(benchParams, a)));
const store = new SqliteStore({ path: BENCH_INDEX });
const tip = (await store.network('LTCTEST').getTip())!.height;
await store.close();
const node = await chainNode(['-maxtipage=315360000']);
mkdirSync(DIR, { recursive: true });
const served = await serveElectrum(node.rpcPort, tip, PROCESSES, {
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${DIR}`], ...(CACHE_MB === undefined ? {} : { electrumConfig: `answer_cache_mb = ${CACHE_MB}` }),
});
try {
  for (const method of METHODS) {
    const cpu = served.cpuMicros();
    const r = await measureElectrumInChild({ host: served.host, port: served.port, method, paramsList: method === 'server.ping' ? [[]] : samples.map((h) => [h]), connections: CONNECTIONS, seconds: SECONDS });
    console.log(`${method}: ${r.rps.toFixed(0)} req/s, cpu ${((served.cpuMicros() - cpu) / Math.max(1, r.total)).toFixed(1)} µs/req, ${r.failed} errors`);
  }
} finally {
  await served.stop();
  await node.stop();
}
console.log(`profiles in ${DIR}`);
