/**
 * Outpoint's Electrum server against Fulcrum 2.1.1, in the same run, on the 100k-tx chain (issue 49; docs/benchmarks.md,
 * "Electrum against Fulcrum"). Fulcrum (FULCRUM_BIN) indexes the chain from empty; Outpoint serves its cached SQLite
 * index as `outpoint serve --api-only` does (bench/electrum-serve-process.ts), once per `[electrum] processes` value of
 * ELECTRUM_BENCH_PROCESSES (default "1,2"). First every answer is compared
 * (bench/electrum-compare.ts: the run fails on a difference); then, per round, each server's floor (server.ping) and
 * get_balance, get_history and listunspent over the chain's 500 sample addresses at concurrency 32, with the server's
 * CPU per request (Fulcrum: all its threads; Outpoint: its processes), then the wallet-sync pattern
 * (bench/electrum-wallet-sync.ts: 1,000 scripthashes subscribed, their histories, their txs; `ELECTRUM_BENCH_WALLETS`
 * wallets at once). Load generators run in processes of their own. Outpoint is measured with its answer cache
 * (`[electrum] answer_cache_mb`, default) and without it ("Cold": every answer read from the index).
 * ELECTRUM_BENCH_BEFORE names another checkout (its own node_modules) served the same way as "Before", for
 * before/after figures in the same run (a checkout without the answer cache has no use for "Cold").
 *
 *   FULCRUM_BIN=/path/to/Fulcrum npm run bench:electrum
 * Settings: BENCH_SECONDS (10), ELECTRUM_BENCH_ROUNDS (3), ELECTRUM_BENCH_WARMUP (3 s per operation), ELECTRUM_BENCH_CONNECTIONS
 * (32), ELECTRUM_BENCH_WALLETS (8), ELECTRUM_BENCH_PROCESSES ("1,2"), FULCRUM_DATA_PARENT (where Fulcrum's datadir goes).
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { addressToScript } from '../src/chains/addressing.js';
import { freePort } from '../test/helpers/free-port.js';
import { benchChain, benchParams, chainSummary, NTX, type BenchChain } from './bench-chain.js';
import { electrumScripthash } from './electrum-client.js';
import { compareServers } from './electrum-compare.js';
import { measureElectrumInChild } from './electrum-load.js';
import { measureWalletSyncInChild, type WalletSyncResult } from './electrum-wallet-sync.js';
import { serveElectrum, type ServedElectrum } from './electrum-serve-process.js';
import { FulcrumProcess } from './fulcrum-process.js';
import type { LoadResult } from './load-client.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['ELECTRUM_BENCH_ROUNDS'] ?? 3);
const WARMUP = Number(process.env['ELECTRUM_BENCH_WARMUP'] ?? 3);
const CONNECTIONS = Number(process.env['ELECTRUM_BENCH_CONNECTIONS'] ?? 32);
const WALLETS = Number(process.env['ELECTRUM_BENCH_WALLETS'] ?? 8);
const FULCRUM_BIN = process.env['FULCRUM_BIN'];
/** Outpoint's server measured with each of these `[electrum] processes` (a process and its workers over the one index). */
const PROCESSES = (process.env['ELECTRUM_BENCH_PROCESSES'] ?? '1,2').split(',').map(Number);
/** Another checkout (an older commit, its own node_modules) measured in the same run as "Before", for before/after figures. */
const BEFORE = process.env['ELECTRUM_BENCH_BEFORE'];
const METHODS = ['server.ping', 'blockchain.scripthash.get_balance', 'blockchain.scripthash.get_history', 'blockchain.scripthash.listunspent'] as const;

interface Server {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  cpuMicros(): number;
}

type Measured = LoadResult & { cpu: number };
const loads = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

async function measure(server: Server, method: string, hashes: readonly string[], seconds: number, quiet = false): Promise<Measured> {
  const cpu = server.cpuMicros();
  const r = await measureElectrumInChild({
    host: server.host, port: server.port, method, paramsList: method === 'server.ping' ? [[]] : hashes.map((h) => [h]), connections: CONNECTIONS, seconds,
  });
  const m = { ...r, cpu: (server.cpuMicros() - cpu) / Math.max(1, r.total) };
  if (!quiet) {
    console.log(`  ${server.name.padEnd(9)} ${method.padEnd(34)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(5)} ms  p99 ${String(m.p99).padStart(6)} ms  ` +
      `cpu ${m.cpu.toFixed(0).padStart(4)} µs/req (client ${(m.clientCpuMicros / Math.max(1, m.total)).toFixed(0)})  ${m.failed} errors`);
  }
  return m;
}

async function sync(server: Server, hashes: readonly string[]): Promise<WalletSyncResult & { cpu: number }> {
  const cpu = server.cpuMicros();
  const r = await measureWalletSyncInChild({ host: server.host, port: server.port, scripthashes: hashes, wallets: WALLETS, window: 256, maxTxs: 5000 });
  const m = { ...r, cpu: (server.cpuMicros() - cpu) / Math.max(1, r.requests) };
  const per = [...m.walletSeconds].sort((x, y) => x - y);
  console.log(`  ${server.name.padEnd(9)} wallet sync x${WALLETS}: ${m.requests} requests (${m.histories} histories, ${m.txs} txs) in ${m.seconds.toFixed(2)} s = ` +
    `${(m.requests / m.seconds).toFixed(0)} req/s; a wallet ${per[0]!.toFixed(2)}-${per.at(-1)!.toFixed(2)} s; cpu ${m.cpu.toFixed(0)} µs/req; ${m.failed} errors`);
  return m;
}

/** The 500 sample addresses and 500 more scripts with history from the index (no OP_RETURN): a wallet's 1,000. */
function walletScripthashes(chain: BenchChain, samples: readonly string[]): string[] {
  const rows = chain.store.connection.prepare("SELECT script FROM scripts_ltctest WHERE tx_count > 0 AND substr(script, 1, 1) != X'6a' ORDER BY key LIMIT 1000").all() as { script: Buffer }[];
  const more = rows.map((r) => electrumScripthash(r.script)).filter((h) => !samples.includes(h));
  return [...samples, ...more].slice(0, 1000);
}

export async function run(): Promise<void> {
  if (!FULCRUM_BIN) throw new Error('set FULCRUM_BIN to a Fulcrum binary (docs/benchmarks.md, "Read rates against Fulcrum")');
  const samples = chainSummary().sample_addresses.map((a) => electrumScripthash(addressToScript(benchParams, a)));
  console.log(`electrum bench: ${NTX}-tx chain, ${samples.length} sample addresses, c=${CONNECTIONS}, ${SECONDS} s each, ${ROUNDS} rounds, ${WALLETS} wallets, node ${process.version}`);
  const chain = await benchChain(['-maxtipage=315360000']);
  const fulcrum = new FulcrumProcess({
    bin: FULCRUM_BIN, rpcPort: chain.rpcPort, rpcUser: 'peer', rpcPassword: 'peerpass', tcpPort: await freePort(),
    ...(process.env['FULCRUM_DATA_PARENT'] ? { parentDir: process.env['FULCRUM_DATA_PARENT'] } : {}),
  });
  const tip = (await chain.network.getTip())!.height;
  const ours: ServedElectrum[] = [];
  try {
    for (const n of PROCESSES) ours.push(await serveElectrum(chain.rpcPort, tip, n));
    // The cold figure: the same server without its answer cache, every answer read from the index as for an address
    // never asked before (the rounds ask the same 500 addresses over and over, which the cache answers after the first).
    for (const n of PROCESSES) ours.push(await serveElectrum(chain.rpcPort, tip, n, { name: 'Cold', electrumConfig: 'answer_cache_mb = 0' }));
    if (BEFORE) for (const n of PROCESSES) ours.push(await serveElectrum(chain.rpcPort, tip, n, { root: BEFORE, name: 'Before' }));
    const synced = await fulcrum.waitSynced(tip);
    console.log(`${synced.version}: indexed to ${tip} in ${synced.seconds.toFixed(1)} s; load average ${loads()}`);
    const theirs: Server = { name: 'Fulcrum', host: fulcrum.host, port: fulcrum.options.tcpPort, cpuMicros: () => fulcrum.cpuMicros() };
    const wallet = walletScripthashes(chain, samples);
    const txs = await Promise.all(chain.txids.slice(0, 300).map(async (txid) => ({ txid, height: (await chain.network.getTransaction(txid))!.height! })));
    const report = await compareServers(theirs, ours[0]!, { scripthashes: wallet, txs, tip });
    console.log(`answers compared: ${report.compared}, differences: ${report.differences.length}`);
    for (const d of report.differences.slice(0, 20)) console.log(`  ${d}`);
    if (report.differences.length > 0) throw new Error(`Outpoint and Fulcrum answer ${report.differences.length} requests differently`);
    const servers: Server[] = [theirs, ...ours];
    if (WARMUP > 0) {
      console.log(`warm-up, ${WARMUP} s per operation and server (not counted)`);
      for (const server of servers) for (const method of METHODS) await measure(server, method, samples, WARMUP, true);
    }
    const results: Record<string, Measured[][]> = Object.fromEntries(servers.map((x) => [x.name, []]));
    const syncs: Record<string, WalletSyncResult[]> = Object.fromEntries(servers.map((x) => [x.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}, load average ${loads()}`);
      for (const server of servers) {
        const row: Measured[] = [];
        for (const method of METHODS) row.push(await measure(server, method, samples, SECONDS));
        results[server.name]!.push(row);
        syncs[server.name]!.push(await sync(server, wallet));
      }
    }
    console.log(`load average after: ${loads()}`);
    const rate = (x: WalletSyncResult): number => x.requests / x.seconds;
    for (const ours of servers.slice(1)) {
      console.log(`${ours.name} / Fulcrum per round (req/s):`);
      METHODS.forEach((method, j) => {
        const cells = results[ours.name]!.map((row, r) => `${row[j]!.rps.toFixed(0)} / ${results['Fulcrum']![r]![j]!.rps.toFixed(0)} = ${(row[j]!.rps / results['Fulcrum']![r]![j]!.rps).toFixed(2)}×`);
        console.log(`  ${method.padEnd(34)} ${cells.join('   ')}`);
      });
      const cells = syncs[ours.name]!.map((x, r) => `${rate(x).toFixed(0)} / ${rate(syncs['Fulcrum']![r]!).toFixed(0)} = ${(rate(x) / rate(syncs['Fulcrum']![r]!)).toFixed(2)}×`);
      console.log(`  ${'wallet sync'.padEnd(34)} ${cells.join('   ')}`);
    }
    const errors = Object.values(results).flat(2).reduce((n, m) => n + m.failed, 0) + Object.values(syncs).flat().reduce((n, s) => n + s.failed, 0);
    if (errors > 0) throw new Error(`${errors} requests failed`);
  } finally {
    for (const server of ours) await server.stop();
    await fulcrum.stop();
    fulcrum.remove();
    await chain.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
