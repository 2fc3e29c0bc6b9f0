/**
 * Address lists against Fulcrum in the same run (issue 33). The address-lists bench compares with ElectrumX figures
 * measured once, on another day, so the machine's drift (±10 % and more on this shared VM) is inside every ratio.
 * Here a real Fulcrum (FULCRUM_BIN) indexes the same 100k-tx chain from an empty datadir and is measured in
 * alternation with Outpoint's SQLite index in one process run: Fulcrum's three operations, then Outpoint's three
 * routes, and again for each round.
 *
 * Both are loaded at concurrency 32 from a client in its own process (Electrum: bench/electrum-load.ts; HTTP:
 * bench/load-client.ts), rotating over the chain's 500 `sample_addresses`. Fulcrum's figures: spawn → answering at
 * the node's tip, peak RSS (VmHWM) at that point and at the end, its datadir's disk use after a clean stop.
 *
 *   FULCRUM_BIN=/path/to/Fulcrum npm run bench:fulcrum
 * Settings (environment): FULCRUM_BIN (required), BENCH_SECONDS (10 per measurement), FULCRUM_BENCH_ROUNDS (2),
 * FULCRUM_BENCH_WARMUP (3: seconds per operation and server before the rounds, not counted), FULCRUM_BENCH_CONNECTIONS
 * (32), FULCRUM_DATA_PARENT (where Fulcrum's throwaway datadir is made; default the temp dir), FULCRUM_BENCH_VERBOSE=1
 * (Fulcrum's log of its sync, with its own timestamps).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { addressToScript } from '../src/chains/addressing.js';
import { buildHttpApp } from '../src/main/wiring/http-wiring.js';
import { freePort } from '../test/helpers/free-port.js';
import { benchAppDeps, benchChain, benchParams, chainSummary, NTX, type BenchChain } from './bench-chain.js';
import { ElectrumClient, electrumScripthash } from './electrum-client.js';
import { measureElectrumInChild } from './electrum-load.js';
import { FulcrumProcess, diskUsage } from './fulcrum-process.js';
import { measureInChild, type LoadResult } from './load-client.js';
import { ownCpuMicros } from './process-cpu.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['FULCRUM_BENCH_CONNECTIONS'] ?? 32);
const ROUNDS = Number(process.env['FULCRUM_BENCH_ROUNDS'] ?? 2);
const WARMUP = Number(process.env['FULCRUM_BENCH_WARMUP'] ?? 3);
const FULCRUM_BIN = process.env['FULCRUM_BIN'];
const VERBOSE = process.env['FULCRUM_BENCH_VERBOSE'] === '1';

/** Our v2 route and the Electrum method that answers the same question. */
const PAIRS = [
  { route: 'get_address_balance', method: 'blockchain.scripthash.get_balance' },
  { route: 'get_tx_received', method: 'blockchain.scripthash.get_history' },
  { route: 'get_tx_unspent', method: 'blockchain.scripthash.listunspent' },
] as const;

/**
 * Each server's floor: a request that reads nothing (Electrum's `server.ping`, a trivial HTTP route on Outpoint's app
 * with all its hooks). What a server spends here it spends on every answer; the address routes' figures above it are
 * what their reads and answers cost.
 */
const FLOOR = { route: 'ping (trivial route)', method: 'server.ping' } as const;

/** A load result with the CPU the server spent per request meanwhile (Fulcrum: all its threads, from /proc). */
type Measured = LoadResult & { cpuMicrosPerRequest: number };

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const loads = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

function line(label: string, r: Measured, extra = ''): string {
  return `  ${label.padEnd(42)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(5)} ms  p99 ${String(r.p99).padStart(6)} ms  cpu ${
    r.cpuMicrosPerRequest.toFixed(0).padStart(4)} µs/req (client ${(r.clientCpuMicros / Math.max(1, r.total)).toFixed(0)})  ${r.failed} errors${extra}`;
}

async function measureFulcrum(fulcrum: FulcrumProcess, scripthashes: readonly string[], seconds: number, tag = ''): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const method of [FLOOR.method, ...PAIRS.map((p) => p.method)]) {
    const cpu = fulcrum.cpuMicros();
    const paramsList = method === FLOOR.method ? [[]] : scripthashes.map((s) => [s]);
    const r = await measureElectrumInChild({ host: fulcrum.host, port: fulcrum.options.tcpPort, method, paramsList, connections: CONNECTIONS, seconds });
    const m = { ...r, cpuMicrosPerRequest: (fulcrum.cpuMicros() - cpu) / Math.max(1, r.total) };
    console.log(line(`${tag}Fulcrum ${method}`, m));
    out.push(m);
  }
  return out;
}

/** Outpoint's v2 app on the cached SQLite index, as bench/address-lists.bench.ts serves it. */
async function measureOutpoint(chain: BenchChain, samples: readonly string[], seconds: number, tag = ''): Promise<Measured[]> {
  const app = await buildHttpApp(benchAppDeps({ store: chain.store, network: chain.network, rpc: chain.rpc }));
  app.get('/ping', async () => ({ ok: true }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const out: Measured[] = [];
  try {
    for (const route of [FLOOR.route, ...PAIRS.map((p) => p.route)]) {
      const cpu = ownCpuMicros();
      const paths = route === FLOOR.route ? ['/ping'] : samples.map((a) => `/api/v2/${route}/LTCTEST/${a}`);
      const r = await measureInChild({ url, paths, connections: CONNECTIONS, seconds });
      const m = { ...r, cpuMicrosPerRequest: (ownCpuMicros() - cpu) / Math.max(1, r.total) };
      console.log(line(`${tag}Outpoint SQLite ${route}`, m));
      out.push(m);
    }
  } finally {
    await app.close();
  }
  return out;
}

/** Both servers must index the same chain: each sample's confirmed balance and tx count, Fulcrum against our index. */
async function crossCheck(fulcrum: FulcrumProcess, chain: BenchChain, samples: readonly string[]): Promise<void> {
  const client = await ElectrumClient.connect(fulcrum.host, fulcrum.options.tcpPort);
  try {
    const mismatches: string[] = [];
    await Promise.all(samples.map(async (address) => {
      const script = addressToScript(benchParams, address);
      const hash = electrumScripthash(script);
      const [balance, history, ours] = await Promise.all([
        client.request<{ confirmed: number }>('blockchain.scripthash.get_balance', [hash]),
        client.request<unknown[]>('blockchain.scripthash.get_history', [hash]),
        chain.network.getAddressTotals(script),
      ]);
      if (BigInt(balance.confirmed) !== ours.confirmedBalance || history.length !== ours.txCount) {
        mismatches.push(`${address}: Fulcrum ${balance.confirmed} sat / ${history.length} txs, Outpoint ${ours.confirmedBalance} / ${ours.txCount}`);
      }
    }));
    if (mismatches.length > 0) throw new Error(`Fulcrum and Outpoint disagree on ${mismatches.length} addresses:\n${mismatches.slice(0, 5).join('\n')}`);
    console.log(`cross-check: Fulcrum and Outpoint agree on the confirmed balance and tx count of all ${samples.length} addresses`);
  } finally {
    client.close();
  }
}

export async function run(): Promise<void> {
  if (!FULCRUM_BIN) throw new Error('set FULCRUM_BIN to a Fulcrum binary (docs/benchmarks.md, "Read rates against Fulcrum")');
  const samples = chainSummary().sample_addresses;
  const scripthashes = samples.map((a) => electrumScripthash(addressToScript(benchParams, a)));
  console.log(`fulcrum-peer bench: ${NTX}-tx chain, ${samples.length} sample addresses rotating, c=${CONNECTIONS}, ${SECONDS} s each, ${ROUNDS} rounds, node ${process.version}`);
  // The cached chain's tip ages past litecoind's 24 h default: the node then reports initialblockdownload, and Fulcrum
  // keeps waiting for the download to end before it opens its port. A tip age of 10 years keeps the node out of IBD.
  const chain = await benchChain(['-maxtipage=315360000']);
  try {
    const tip = await chain.rpc.call<number>('getblockcount');
    const { txcount } = await chain.rpc.call<{ txcount: number }>('getchaintxstats');
    const { initialblockdownload } = await chain.rpc.call<{ initialblockdownload: boolean }>('getblockchaininfo');
    console.log(`node: tip ${tip}, ${txcount} txs, initialblockdownload ${initialblockdownload}`);
    console.log(`load average before Fulcrum's index: ${loads()}`);
    const fulcrum = new FulcrumProcess({
      bin: FULCRUM_BIN, rpcPort: chain.rpcPort, rpcUser: 'peer', rpcPassword: 'peerpass', tcpPort: await freePort(),
      ...(process.env['FULCRUM_DATA_PARENT'] ? { parentDir: process.env['FULCRUM_DATA_PARENT'] } : {}),
    });
    const rounds: { fulcrum: Measured[]; outpoint: Measured[] }[] = [];
    let synced: { seconds: number; version: string };
    let indexRss: number;
    try {
      synced = await fulcrum.waitSynced(tip);
      indexRss = fulcrum.peakRssBytes();
      console.log(`${synced.version}: indexed from empty to tip ${tip} in ${synced.seconds.toFixed(1)} s (spawn → answering at the tip), peak RSS ${mib(indexRss)}; load average ${loads()}`);
      await crossCheck(fulcrum, chain, samples);
      if (WARMUP > 0) {
        // Untimed: V8 compiles Outpoint's hot paths only after thousands of calls, and both servers' caches (RocksDB's
        // blocks, SQLite's pages) fill on first reads; the rounds compare the two in their steady state.
        console.log(`warm-up, ${WARMUP} s per operation (not counted)`);
        await measureFulcrum(fulcrum, scripthashes, WARMUP, 'warm-up ');
        await measureOutpoint(chain, samples, WARMUP, 'warm-up ');
      }
      for (let i = 0; i < ROUNDS; i++) {
        console.log(`round ${i + 1} of ${ROUNDS}, load average ${loads()}`);
        rounds.push({ fulcrum: await measureFulcrum(fulcrum, scripthashes, SECONDS), outpoint: await measureOutpoint(chain, samples, SECONDS) });
      }
      console.log(`load average after: ${loads()}`);
    } finally {
      const code = await fulcrum.stop();
      if (code !== 0) console.log(`Fulcrum exited with ${code}; log: ${fulcrum.logPath}`);
    }
    const disk = diskUsage(fulcrum.dataDir);
    if (VERBOSE) {
      // Its sync and shutdown; the bench's client connections are left out (one line each).
      for (const l of readFileSync(fulcrum.logPath, 'utf8').split('\n').filter((l) => !/Client\.\d+/.test(l)).slice(0, 80)) console.log(`    fulcrum: ${l}`);
    }
    fulcrum.remove();

    console.log(`\nFulcrum (${synced.version}) on ${txcount} txs: index ${synced.seconds.toFixed(1)} s; datadir ${disk.allocated} bytes by du (${
      (disk.allocated / txcount).toFixed(0)} B/tx; apparent ${disk.apparent}, ${(disk.apparent / txcount).toFixed(0)} B/tx); peak RSS ${
      mib(indexRss)} at the tip, ${mib(fulcrum.peakRssBytes())} after the load`);
    console.log(`  datadir by kind of file: ${[...disk.byKind].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([k, b]) => `${k} ${b}`).join(', ')}`);
    console.log('req/s at c=32, 500 sample addresses: Outpoint SQLite / Fulcrum per round');
    [FLOOR, ...PAIRS].forEach(({ route, method }, j) => {
      const cells = rounds.map((r) => `${r.outpoint[j]!.rps.toFixed(0)} / ${r.fulcrum[j]!.rps.toFixed(0)} = ${(r.outpoint[j]!.rps / r.fulcrum[j]!.rps).toFixed(2)}×`);
      console.log(`  ${route} / ${method.replace('blockchain.scripthash.', '')}: ${cells.join('   ')}`);
    });
    const errors = rounds.flatMap((r) => [...r.fulcrum, ...r.outpoint]).reduce((n, m) => n + m.failed, 0);
    if (errors > 0) throw new Error(`${errors} requests failed`);
  } finally {
    await chain.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
