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
 * ADDRESS_BENCH_RUNS (1), ADDRESS_BENCH_CONNECTIONS (32).
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemoryEventBus, silentLogger, type ChainStore, type NetworkStore } from '../src/core/index.js';
import { createHttpApp } from '../src/http/create-http-app.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/node-client.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { benchAppDeps, benchChain, benchParams, chainSummary, NTX, type BenchChain } from './bench-chain.js';
import { measureInChild, type LoadResult } from './load-client.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['ADDRESS_BENCH_CONNECTIONS'] ?? 32);
const RUNS = Number(process.env['ADDRESS_BENCH_RUNS'] ?? 1);
const ENGINES = (process.env['ADDRESS_BENCH_ENGINES'] ?? 'sqlite,postgres').split(',').filter(Boolean);

type PeerOp = 'get_balance' | 'get_history' | 'listunspent';
/** Our route, the peer's operation it is compared with, and the ratio issue 19 asks for. */
const ROUTES: readonly { route: string; peer: PeerOp; target: number }[] = [
  { route: 'get_address_balance', peer: 'get_balance', target: 5 },
  { route: 'get_tx_received', peer: 'get_history', target: 2 },
  { route: 'get_tx_unspent', peer: 'listunspent', target: 3 },
];

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
async function loadPostgres(chain: BenchChain, url: string): Promise<{ store: PostgresStore; network: NetworkStore }> {
  const store = new PostgresStore({ connectionString: url });
  await store.migrate();
  const network = store.network('LTCTEST');
  const indexer = new NetworkIndexer({ params: benchParams, source: new RpcChainSource(new NodeClient(chain.rpc)), store: network, bus: new MemoryEventBus(), logger: silentLogger });
  const started = Date.now();
  const best = await chain.rpc.call<string>('getbestblockhash');
  for (let i = 0; i < 50 && (await network.getTip())?.hash !== best; i++) await indexer.syncOnce();
  console.log(`postgres: chain loaded by the indexer in ${((Date.now() - started) / 1000).toFixed(1)} s, tip ${(await network.getTip())?.height}`);
  return { store, network };
}

function line(label: string, r: LoadResult, extra = ''): string {
  return `  ${label.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms${
    r.failed ? `  (${r.failed} failed)` : ''}${extra}`;
}

async function measureEngine(engine: string, chain: BenchChain, store: Pick<ChainStore, 'shortAddresses'>, network: NetworkStore, samples: readonly string[]): Promise<void> {
  const peers = peerFigures(peerReadme());
  const app = await createHttpApp(benchAppDeps({ store, network, rpc: chain.rpc }));
  app.get('/ping', async () => ({ ok: true }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const load = (paths: readonly string[]): Promise<LoadResult> => measureInChild({ url, paths, connections: CONNECTIONS, seconds: SECONDS });
  try {
    const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
    console.log(`${engine}: ${CONNECTIONS} connections, ${SECONDS} s each, load average ${one} ${five} ${fifteen}`);
    const ceiling = await load(['/ping']);
    console.log(line('trivial route (framework ceiling)', ceiling));
    for (const { route, peer, target } of ROUTES) {
      const r = await load(samples.map((a) => `/api/v2/${route}/LTCTEST/${a}`));
      const p = peers.get(peer);
      const ratio = p ? `  ${(r.rps / p.mid).toFixed(2)}× ${peer} (${p.mid.toFixed(0)}; target ${target}×)` : '';
      console.log(line(`${route} (${samples.length} addresses)`, r, `${ratio}  ${((r.rps / ceiling.rps) * 100).toFixed(0)}% of trivial`));
    }
    for (const { route } of ROUTES) {
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
  const pg = ENGINES.includes('postgres') ? await startPostgres() : null;
  try {
    const pgLoaded = pg ? await loadPostgres(chain, pg.url) : null;
    try {
      for (let i = 0; i < RUNS; i++) {
        if (RUNS > 1) console.log(`run ${i + 1} of ${RUNS}`);
        if (ENGINES.includes('sqlite')) await measureEngine('sqlite', chain, chain.store, chain.network, samples);
        if (pgLoaded) await measureEngine('postgres', chain, pgLoaded.store, pgLoaded.network, samples);
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
