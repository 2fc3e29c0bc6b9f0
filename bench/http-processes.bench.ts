/**
 * `[http] processes` (issue 49): the v2 address reads with the HTTP port served by one process, then by worker
 * processes, in one run. Each server is `outpoint serve --api-only` as operators run it, on the cached SQLite index of
 * the 100k-tx bench chain (no indexer: the index does not move), both started up front and measured in alternation
 * (route by route, one server then the other, each round), loaded at c=32 by a client in its own process
 * (bench/load-client.ts) rotating over the chain's 500 sample addresses. Server CPU is the serving process's and its
 * workers' (from /proc), per request; the load generator's beside it.
 *
 *   flock /tmp/outpoint-bench.lock npm run bench:http-processes
 * Settings (environment): BENCH_SECONDS (10 per measurement), HTTP_BENCH_ROUNDS (2), HTTP_BENCH_WARMUP (3 s per route
 * and server, not counted), HTTP_BENCH_CONNECTIONS (32), HTTP_BENCH_PROCESSES (`1,2`: the `[http] processes` compared),
 * HTTP_BENCH_RATES (`0,1000000`: the `[http] rate_limit_per_second` of each pair of servers; 0 is off, 1000000 counts
 * every request without refusing any: with workers, each v2 request then asks the serving process's counter over IPC).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../test/helpers/serve-process.js';
import { BENCH_INDEX, benchChain, chainSummary, NTX } from './bench-chain.js';
import { measureInChild, type LoadResult } from './load-client.js';
import { treeCpuMicros } from './process-cpu.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['HTTP_BENCH_ROUNDS'] ?? 2);
const WARMUP = Number(process.env['HTTP_BENCH_WARMUP'] ?? 3);
const CONNECTIONS = Number(process.env['HTTP_BENCH_CONNECTIONS'] ?? 32);
const PROCESSES = (process.env['HTTP_BENCH_PROCESSES'] ?? '1,2').split(',').map(Number);
const RATES = (process.env['HTTP_BENCH_RATES'] ?? '0,1000000').split(',').map(Number);

/** The floor (a route that reads nothing: /health) and the three address reads. */
const ROUTES = ['health', 'get_address_balance', 'get_tx_received', 'get_tx_unspent'] as const;

interface Served {
  readonly processes: number;
  readonly rate: number;
  readonly label: string;
  readonly url: string;
  cpuMicros(): number;
  stop(): Promise<void>;
}

type Measured = LoadResult & { cpuMicrosPerRequest: number };

const loads = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

async function serve(rpcPort: number, processes: number, rate: number): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-http-bench-'));
  const config = join(dir, 'outpoint.toml');
  writeFileSync(config, `data_dir = "${dir}"
[store]
url = "sqlite:${BENCH_INDEX}"
[http]
rate_limit_per_second = ${rate}
processes = ${processes}
[market]
sources = []
[networks.LTCTEST]
chain = "regtest"
rpc_url = "http://peer:peerpass@127.0.0.1:${rpcPort}/"
`);
  try {
    const served = await startServe(config, { apiOnly: true, readyNetwork: 'LTCTEST' });
    const stop = async (): Promise<void> => {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    };
    return { processes, rate, label: `processes=${processes} rate=${rate}`, url: served.url, cpuMicros: () => treeCpuMicros(served.child.pid!), stop };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function measure(server: Served, route: (typeof ROUTES)[number], samples: readonly string[], seconds: number, tag = ''): Promise<Measured> {
  const paths = route === 'health' ? ['/health'] : samples.map((a) => `/api/v2/${route}/LTCTEST/${a}`);
  const cpu = server.cpuMicros();
  const r = await measureInChild({ url: server.url, paths, connections: CONNECTIONS, seconds });
  const m = { ...r, cpuMicrosPerRequest: (server.cpuMicros() - cpu) / Math.max(1, r.total) };
  console.log(`  ${`${tag}${server.label} ${route}`.padEnd(50)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${
    String(m.p99).padStart(5)} ms  server cpu ${m.cpuMicrosPerRequest.toFixed(0).padStart(4)} µs/req (client ${(m.clientCpuMicros / Math.max(1, m.total)).toFixed(0)})  ${m.failed} errors`);
  return m;
}

export async function run(): Promise<void> {
  // Made (and indexed) first when the cache has no chain yet: the sample addresses are the chain's.
  const chain = await benchChain();
  const samples = chainSummary().sample_addresses;
  console.log(`http-processes bench: ${NTX}-tx chain, ${samples.length} sample addresses rotating, c=${CONNECTIONS}, ${SECONDS} s each, ${ROUNDS} rounds, `
    + `[http] processes ${PROCESSES.join(' vs ')}, rate_limit_per_second ${RATES.join(' and ')}, ${availableParallelism()} cores, node ${process.version}`);
  const servers: Served[] = [];
  try {
    for (const rate of RATES) for (const n of PROCESSES) servers.push(await serve(chain.rpcPort, n, rate));
    if (WARMUP > 0) {
      console.log(`warm-up, ${WARMUP} s per route and server (not counted)`);
      for (const route of ROUTES) for (const server of servers) await measure(server, route, samples, WARMUP, 'warm-up ');
    }
    const results = new Map<string, Measured[]>();
    for (let i = 0; i < ROUNDS; i++) {
      console.log(`round ${i + 1} of ${ROUNDS}, load average ${loads()}`);
      for (const route of ROUTES) {
        for (const server of servers) {
          const key = `${route}:${server.label}`;
          results.set(key, [...(results.get(key) ?? []), await measure(server, route, samples, SECONDS)]);
        }
      }
    }
    console.log(`load average after: ${loads()}`);
    const mean = (ms: readonly Measured[], f: (m: Measured) => number): number => ms.reduce((s, m) => s + f(m), 0) / ms.length;
    console.log(`\nmean of ${ROUNDS} rounds: req/s (server CPU µs per request, all processes); ratio to processes=${PROCESSES[0]} at the same rate limit`);
    for (const rate of RATES) {
      console.log(` rate_limit_per_second = ${rate}`);
      for (const route of ROUTES) {
        const of = (n: number): Measured[] => results.get(`${route}:processes=${n} rate=${rate}`)!;
        const base = mean(of(PROCESSES[0]!), (m) => m.rps);
        const cells = PROCESSES.map((n) => {
          const rps = mean(of(n), (m) => m.rps);
          return `processes=${n}: ${rps.toFixed(0)} req/s (${mean(of(n), (m) => m.cpuMicrosPerRequest).toFixed(0)} µs) ${(rps / base).toFixed(2)}×`;
        });
        console.log(`  ${route.padEnd(20)} ${cells.join('   ')}`);
      }
    }
    const errors = [...results.values()].flat().reduce((n, m) => n + m.failed, 0);
    if (errors > 0) throw new Error(`${errors} requests failed`);
  } finally {
    for (const server of servers) await server.stop();
    await chain.close();
  }
}

await run();
