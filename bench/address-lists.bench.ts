/**
 * Address lists against the peer (issue 19, "Address lists"): v2 get_address_balance, get_tx_received and
 * get_tx_unspent at concurrency 32 on the 100k-tx bench chain, on SQLite and on PostgreSQL, next to the same
 * server's trivial route (the framework ceiling) and as ratios of ElectrumX's figures for get_balance, get_history
 * and listunspent on the same chain (shared/tools/regtest-chain/README.md).
 *
 * "The same set of addresses": the peer's set is not recorded, so requests rotate over the chain's 500
 * `sample_addresses` (chain-summary.json); the hot address with the longest history is measured apart.
 * The load generator runs in its own process (bench/load-client.ts), so the server keeps its process.
 *
 *   node --import tsx bench/address-lists.bench.ts
 * Settings (environment): BENCH_SECONDS (10 per measurement), ADDRESS_BENCH_ENGINES (sqlite,postgres),
 * ADDRESS_BENCH_RUNS (1), ADDRESS_BENCH_CONNECTIONS (32), ADDRESS_BENCH_PG_URL (a database that already holds the
 * chain, e.g. while tuning queries; default: a throwaway server loaded by the indexer), ADDRESS_BENCH_ROUTES (a subset
 * of the three routes, comma-separated; profiling one route), ADDRESS_BENCH_SETS (samples,hot: which address sets).
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemoryEventBus, silentLogger, type ChainStore, type NetworkStore } from '../src/core/index.js';
import { buildHttpApp } from '../src/main/wiring/http-wiring.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { benchAppDeps, benchChain, benchParams, chainSummary, NTX, type BenchChain } from './bench-chain.js';
import { measureInChild, type LoadResult } from './load-client.js';
import { clusterCpuMicros, ownCpuMicros } from './process-cpu.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['ADDRESS_BENCH_CONNECTIONS'] ?? 32);
const RUNS = Number(process.env['ADDRESS_BENCH_RUNS'] ?? 1);
const ENGINES = (process.env['ADDRESS_BENCH_ENGINES'] ?? 'sqlite,postgres').split(',').filter(Boolean);
const SETS = (process.env['ADDRESS_BENCH_SETS'] ?? 'samples,hot').split(',');

type PeerOp = 'get_balance' | 'get_history' | 'listunspent';
/** Our route, the peer's operation it is compared with, and the ratio issue 19 asks for. */
const ROUTES = ([
  { route: 'get_address_balance', peer: 'get_balance', target: 5 },
  { route: 'get_tx_received', peer: 'get_history', target: 2 },
  { route: 'get_tx_unspent', peer: 'listunspent', target: 3 },
] as const).filter((r) => (process.env['ADDRESS_BENCH_ROUTES'] ?? r.route).split(',').includes(r.route));

/** The peer's req/s range per operation, read from the chain tool's README (the midpoint is the reference). */
export function peerFigures(readme: string): Map<PeerOp, { low: number; high: number; mid: number }> {
  const out = new Map<PeerOp, { low: number; high: number; mid: number }>();
  for (const m of readme.matchAll(/`(get_balance|get_history|listunspent)` ~([\d,]+)–([\d,]+)/g)) {
    const low = Number(m[2]!.replace(/,/g, ''));
    const high = Number(m[3]!.replace(/,/g, ''));
    out.set(m[1] as PeerOp, { low, high, mid: (low + high) / 2 });
  }
  return out;
}

/** shared/tools/regtest-chain/README.md, looked for above the repository (a worktree sits deeper than the main clone). */
function peerReadme(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'shared/tools/regtest-chain/README.md');
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error('shared/tools/regtest-chain/README.md not found above the repository');
}

/** The bench chain loaded into a fresh PostgreSQL database by the real indexer (its initial bulk load). */
async function loadPostgres(chain: BenchChain, url: string): Promise<{ store: PostgresStore; network: NetworkStore; dbCpu: () => number }> {
  const store = new PostgresStore({ connectionString: url });
  await store.migrate();
  const network = store.network('LTCTEST');
  const indexer = new NetworkIndexer({ params: benchParams, source: new RpcChainSource(new NodeClient(chain.rpc)), store: network, bus: new MemoryEventBus(), logger: silentLogger });
  const started = Date.now();
  const best = await chain.rpc.call<string>('getbestblockhash');
  for (let i = 0; i < 50 && (await network.getTip())?.hash !== best; i++) await indexer.syncOnce();
  console.log(`postgres: chain loaded by the indexer in ${((Date.now() - started) / 1000).toFixed(1)} s, tip ${(await network.getTip())?.height}`);
  const dataDirectory = String((await store.pool.query('SHOW data_directory')).rows[0].data_directory);
  return { store, network, dbCpu: () => clusterCpuMicros(dataDirectory) };
}

/** A load result with the CPU the server (and the database's processes) spent per request meanwhile. */
type Measured = LoadResult & { serverMicros: number; dbMicros: number | null };

function line(label: string, r: Measured, extra = ''): string {
  const cpu = `cpu ${((r.serverMicros + (r.dbMicros ?? 0)) / r.total).toFixed(0).padStart(4)} µs/req${
    r.dbMicros === null ? '' : ` (server ${(r.serverMicros / r.total).toFixed(0)} + db ${(r.dbMicros / r.total).toFixed(0)})`}`;
  return `  ${label.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms  ${cpu}${
    r.failed ? `  (${r.failed} failed)` : ''}${extra}`;
}

interface Engine {
  readonly name: string;
  readonly store: Pick<ChainStore, 'shortAddresses'>;
  readonly network: NetworkStore;
  /** CPU microseconds the database's own processes used so far (null: in this process, as SQLite). */
  readonly dbCpu: (() => number) | null;
}

async function measureEngine({ name: engine, store, network, dbCpu }: Engine, chain: BenchChain, samples: readonly string[]): Promise<void> {
  const peers = peerFigures(peerReadme());
  const app = await buildHttpApp(benchAppDeps({ store, network, rpc: chain.rpc }));
  app.get('/ping', async () => ({ ok: true }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const load = async (paths: readonly string[]): Promise<Measured> => {
    const server = ownCpuMicros();
    const db = dbCpu?.() ?? null;
    const r = await measureInChild({ url, paths, connections: CONNECTIONS, seconds: SECONDS });
    return { ...r, serverMicros: ownCpuMicros() - server, dbMicros: db === null ? null : dbCpu!() - db };
  };
  try {
    const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
    console.log(`${engine}: ${CONNECTIONS} connections, ${SECONDS} s each, load average ${one} ${five} ${fifteen}`);
    const ceiling = await load(['/ping']);
    console.log(line('trivial route (framework ceiling)', ceiling));
    for (const { route, peer, target } of SETS.includes('samples') ? ROUTES : []) {
      const r = await load(samples.map((a) => `/api/v2/${route}/LTCTEST/${a}`));
      const p = peers.get(peer);
      const ratio = p ? `  ${(r.rps / p.mid).toFixed(2)}× ${peer} (${p.mid.toFixed(0)}; target ${target}×)` : '';
      console.log(line(`${route} (${samples.length} addresses)`, r, `${ratio}  ${((r.rps / ceiling.rps) * 100).toFixed(0)}% of trivial`));
    }
    for (const { route } of SETS.includes('hot') ? ROUTES : []) {
      console.log(line(`${route} (hot, ${chain.hot.txs} txs)`, await load([`/api/v2/${route}/LTCTEST/${chain.hot.address}`])));
    }
  } finally {
    await app.close();
  }
}

export async function run(): Promise<void> {
  const samples = chainSummary().sample_addresses;
  console.log(`address-lists bench: ${NTX}-tx chain, ${samples.length} sample addresses rotating per request, node ${process.version}`);
  const peers = peerFigures(peerReadme());
  console.log(`  peer (ElectrumX, README): ${[...peers].map(([op, p]) => `${op} ${p.low}–${p.high}`).join(', ')} req/s at c=32`);
  const chain = await benchChain();
  const given = process.env['ADDRESS_BENCH_PG_URL'];
  const pg = ENGINES.includes('postgres') && !given ? await startPostgres() : null;
  try {
    const pgUrl = given ?? pg?.url;
    const pgLoaded = ENGINES.includes('postgres') && pgUrl ? await loadPostgres(chain, pgUrl) : null;
    try {
      for (let i = 0; i < RUNS; i++) {
        if (RUNS > 1) console.log(`run ${i + 1} of ${RUNS}`);
        if (ENGINES.includes('sqlite')) await measureEngine({ name: 'sqlite', store: chain.store, network: chain.network, dbCpu: null }, chain, samples);
        if (pgLoaded) await measureEngine({ name: 'postgres', ...pgLoaded }, chain, samples);
      }
    } finally {
      await pgLoaded?.store.close();
    }
  } finally {
    await pg?.stop();
    await chain.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
