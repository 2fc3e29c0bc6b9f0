/**
 * Initial-sync benchmark: the real NetworkIndexer + RpcChainSource + NodeClient/RpcClient indexing a repeatable
 * 100,000-tx litecoind regtest chain from scratch, on SQLite (a fresh file) and PostgreSQL (a throwaway server).
 * The same run times fetching + parsing the same blocks without writing (the ceiling an indexer can reach).
 *
 * Each measurement runs in its own child process so its peak RSS (maxRSS) is its own. Then, per engine, the figure a
 * user sees (index-serve.ts): the real `outpoint serve` from spawn on an empty store to address queries answering
 * at the tip, start-up and the initial sync's bulk load and index build included.
 *   node --import tsx bench/index.bench.ts            (or npm run bench:index)
 * Settings (environment): INDEX_BENCH_TXS (100000), INDEX_BENCH_ENGINES (sqlite,postgres), INDEX_BENCH_RUNS (1),
 * INDEX_BENCH_BATCH_TXS (indexer batchTxTarget, default the indexer's own), INDEX_BENCH_REQUESTS (getblock requests in
 * flight, the `sync_requests` setting; default the fetcher's own), INDEX_BENCH_PROF (a directory: CPU profiles
 * of the child processes), INDEX_BENCH_PG_SETTINGS (more PostgreSQL server settings, name=value,…: e.g.
 * `shared_preload_libraries=auto_explain,auto_explain.log_min_duration=200ms,auto_explain.log_analyze=on,
 * logging_collector=on,log_directory=/some/dir` logs each slow statement's plan into a directory the server can write).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { freePort } from '../test/helpers/free-port.js';
import { recordingLogger } from '../test/helpers/recording-logger.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { getNetworkParams } from '../src/chains/networks.js';
import { MemoryEventBus, type ChainStore } from '../src/core/index.js';
import { BlockFetcher } from '../src/indexer/block-fetcher.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { RpcClient } from '../src/node/rpc/rpc-client.js';
import { report, type ChildResult, type Mode } from './index-result.js';
import { dropPgDatabase, hotAddresses, newPgDatabase, pgDatabaseBytes, reportServe, serveRun } from './index-serve.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const LITECOIND = process.env['LITECOIND'] ?? '/usr/lib/litecoin/litecoind';
const MAKE_CHAIN = new URL('./regtest-chain/make-chain.sh', import.meta.url).pathname;
const NTX = Number(process.env['INDEX_BENCH_TXS'] ?? 100_000);
const CACHE = join(ROOT, '.bench-cache');
const SOURCE = join(CACHE, `chain-${NTX}`);
const NODE_COPY = join(CACHE, 'index-bench-node');
const RPC_USER = 'peer';
const RPC_PASS = 'peerpass';
const params = getNetworkParams('LTCTEST', 'regtest');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The chain (built once, gitignored) and a private copy of its datadir: another engineer may run a node on the original. */
export function prepareNodeDir(): string {
  if (!existsSync(join(SOURCE, 'chain-summary.json'))) {
    console.log(`  building the ${NTX}-tx regtest chain in ${SOURCE} (a few minutes, once)`);
    mkdirSync(CACHE, { recursive: true });
    const built = spawnSync('bash', [MAKE_CHAIN, SOURCE, String(NTX)], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`make-chain.sh failed (${built.status})`);
  }
  const stamp = join(NODE_COPY, '.source-mtime');
  const sourceMtime = String(newestMtime(SOURCE));
  const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === sourceMtime;
  if (!fresh) {
    rmSync(NODE_COPY, { recursive: true, force: true });
    cpSync(SOURCE, NODE_COPY, { recursive: true });
    for (const lock of ['regtest/.lock', 'regtest/litecoind.pid', '.lock']) rmSync(join(NODE_COPY, lock), { force: true });
    writeFileSync(stamp, sourceMtime);
  }
  return NODE_COPY;
}

export async function startNode(datadir: string): Promise<{ url: string; proc: ChildProcess; rpc: RpcClient }> {
  const rpcPort = await freePort();
  const p2pPort = await freePort();
  const proc = spawn(LITECOIND, [`-datadir=${datadir}`, `-rpcport=${rpcPort}`, `-port=${p2pPort}`, '-printtoconsole=0'], { stdio: 'ignore' });
  const url = `http://${RPC_USER}:${RPC_PASS}@127.0.0.1:${rpcPort}`;
  const rpc = new RpcClient({ url, retries: 0 });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`litecoind exited with ${proc.exitCode}`);
    try {
      await rpc.call('getblockcount');
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('litecoind did not answer RPC within 120 s');
      await delay(200);
    }
  }
  return { url, proc, rpc };
}

export async function stopNode(node: { proc: ChildProcess; rpc: RpcClient }): Promise<void> {
  const exited = new Promise((resolve) => node.proc.once('exit', resolve));
  await node.rpc.call('stop').catch(() => node.proc.kill('SIGTERM'));
  node.rpc.close();
  // Unreferenced: the bench exits when the node has, not a minute later.
  await Promise.race([exited, delay(60_000, undefined, { ref: false })]);
  if (node.proc.exitCode === null) node.proc.kill('SIGKILL');
}

function dirBytes(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += dirBytes(join(path, entry));
  return total;
}

// ---- child side: one measurement per process ----

async function childIndex(mode: 'sqlite' | 'postgres', rpcUrl: string, target: string): Promise<ChildResult> {
  let store: ChainStore;
  let pgPool: { query(sql: string): Promise<{ rows: unknown[] }> } | null = null;
  if (mode === 'sqlite') {
    const { SqliteStore } = await import('../src/store/sqlite/sqlite-store.js');
    store = new SqliteStore({ path: target });
  } else {
    const { PostgresStore } = await import('../src/store/postgres/postgres-store.js');
    const pgStore = new PostgresStore({ connectionString: target });
    pgPool = pgStore.pool;
    store = pgStore;
  }
  await store.migrate();
  const rpc = new RpcClient({ url: rpcUrl });
  const batchTxTarget = process.env['INDEX_BENCH_BATCH_TXS'] ? Number(process.env['INDEX_BENCH_BATCH_TXS']) : undefined;
  const fetchRequests = process.env['INDEX_BENCH_REQUESTS'] ? Number(process.env['INDEX_BENCH_REQUESTS']) : undefined;
  const network = store.network(params.id);
  const { logger, lines } = recordingLogger();
  const indexer = new NetworkIndexer({
    params, source: new RpcChainSource(new NodeClient(rpc)), store: network, bus: new MemoryEventBus(), logger,
    ...(batchTxTarget ? { batchTxTarget } : {}),
    ...(fetchRequests ? { fetchRequests } : {}),
  });
  const start = process.hrtime.bigint();
  await indexer.syncOnce();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const summary = lines.find((l) => l.message === 'sync finished')?.fields;
  const split = summary && { waitingSeconds: Number(summary['waitingSeconds']), writingSeconds: Number(summary['writingSeconds']) };
  const tip = (await network.getTip())!;
  let txs = 0;
  let rawBytes = 0;
  for (let h = 0; h <= tip.height; h++) {
    const block = (await network.getBlockByHeight(h))!;
    txs += block.txCount;
    rawBytes += block.size;
  }
  let diskBytes: number;
  if (pgPool) {
    await pgPool.query('CHECKPOINT');
    const row = (await pgPool.query('SELECT pg_database_size(current_database()) AS size')).rows[0] as { size: string };
    diskBytes = Number(row.size);
    await store.close();
  } else {
    await store.close(); // checkpoints the WAL into the main file
    diskBytes = dirBytes(target) + dirBytes(`${target}-wal`) + dirBytes(`${target}-shm`);
  }
  rpc.close();
  return { mode, seconds, blocks: tip.height + 1, txs, rawBytes, diskBytes, maxRssBytes: 0, ...(split ? { split } : {}) };
}

/** Fetch + parse every block with the indexer's own fetcher and batch sizes, one batch ahead, writing nothing. */
async function childCeiling(rpcUrl: string): Promise<ChildResult> {
  const rpc = new RpcClient({ url: rpcUrl });
  const source = new RpcChainSource(new NodeClient(rpc));
  const batchTxTarget = process.env['INDEX_BENCH_BATCH_TXS'] ? Number(process.env['INDEX_BENCH_BATCH_TXS']) : undefined;
  const fetchRequests = process.env['INDEX_BENCH_REQUESTS'] ? Number(process.env['INDEX_BENCH_REQUESTS']) : undefined;
  const fetcher = new BlockFetcher(source, params.features, {
    ...(batchTxTarget ? { targetTxs: batchTxTarget } : {}),
    ...(fetchRequests ? { parallel: fetchRequests } : {}),
  });
  const start = process.hrtime.bigint();
  const nodeHeight = await source.getBlockCount();
  let blocks = 0;
  let txs = 0;
  let rawBytes = 0;
  let next = 0;
  while (next <= nodeHeight) {
    const batch = await fetcher.fetch(next, fetcher.nextCount(nodeHeight - next + 1));
    for (const block of batch.blocks) {
      txs += block.txs.length;
      for (const tx of block.txs) if (tx.txid.length !== 64) throw new Error('bad txid');
    }
    blocks += batch.blocks.length;
    rawBytes += batch.bytes;
    next += batch.blocks.length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  rpc.close();
  return { mode: 'ceiling', seconds, blocks, txs, rawBytes, diskBytes: null, maxRssBytes: 0 };
}

async function childMain(mode: Mode, rpcUrl: string, target: string): Promise<void> {
  const result = mode === 'ceiling' ? await childCeiling(rpcUrl) : await childIndex(mode, rpcUrl, target);
  result.maxRssBytes = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

// ---- parent side ----

function runChild(mode: Mode, rpcUrl: string, target: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const prof = process.env['INDEX_BENCH_PROF'];
    const profArgs = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
    const child = spawn(process.execPath, [...process.execArgv, ...profArgs, SELF, '--child', mode, rpcUrl, target], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: ROOT,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`${mode} child exited with ${code}: ${out.slice(-500)}`));
      else resolve(JSON.parse(line.slice(7)) as ChildResult);
    });
  });
}

export async function run(): Promise<void> {
  const engines = (process.env['INDEX_BENCH_ENGINES'] ?? 'sqlite,postgres').split(',').filter(Boolean) as ('sqlite' | 'postgres')[];
  const runs = Number(process.env['INDEX_BENCH_RUNS'] ?? 1);
  console.log(`index bench: ${NTX}-tx litecoind regtest chain, ${runs} run(s), node ${process.version}`);
  const node = await startNode(prepareNodeDir());
  const work = mkdtempSync(join(tmpdir(), 'outpoint-index-bench-'));
  let pgServer: { urlFor(db: string): string; url: string; stop(): Promise<void> } | null = null;
  try {
    const best = new Map<Mode, ChildResult>();
    const keep = (r: ChildResult): void => {
      const prev = best.get(r.mode);
      if (!prev || r.seconds < prev.seconds) best.set(r.mode, r);
    };
    if (engines.includes('postgres')) {
      const { startPostgres } = await import('../test/helpers/postgres-server.js');
      const settings = Object.fromEntries((process.env['INDEX_BENCH_PG_SETTINGS'] ?? '').split(',').filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      pgServer = await startPostgres({ settings });
    }
    for (let i = 0; i < runs; i++) {
      const ceiling = await runChild('ceiling', node.url, '');
      keep(ceiling);
      report(ceiling, null);
      for (const engine of engines) {
        let target: string;
        if (engine === 'sqlite') {
          target = join(work, `index-${i}.db`);
        } else {
          target = await newPgDatabase(pgServer!, `bench_${i}`);
        }
        const result = await runChild(engine, node.url, target);
        keep(result);
        report(result, ceiling);
        if (engine === 'postgres') await dropPgDatabase(pgServer!, `bench_${i}`);
        const serveTarget = engine === 'sqlite' ? `sqlite:${join(work, `serve-${i}.db`)}` : await newPgDatabase(pgServer!, `serve_${i}`);
        reportServe(engine, await serveRun({
          network: params.id, rpcUrl: node.url, storeUrl: serveTarget, dir: join(work, `serve-${engine}-${i}`), port: await freePort(),
          tipHeight: Number(await node.rpc.call('getblockcount')), addresses: hotAddresses(SOURCE),
        }), result.txs, engine === 'postgres' ? await pgDatabaseBytes(serveTarget) : null);
        if (engine === 'postgres') await dropPgDatabase(pgServer!, `serve_${i}`);
      }
    }
    if (runs > 1) {
      console.log('  best of runs:');
      const ceiling = best.get('ceiling') ?? null;
      for (const r of best.values()) report(r, r.mode === 'ceiling' ? null : ceiling);
    }
    console.log('  reference: ElectrumX 2.0b1 indexes this chain in 7.9-9.6 s (bench/regtest-chain/README.md)');
  } finally {
    await pgServer?.stop();
    rmSync(work, { recursive: true, force: true });
    await stopNode(node);
  }
}

const argv = process.argv;
if (argv[2] === '--child') {
  await childMain(argv[3] as Mode, argv[4]!, argv[5]!);
} else if (argv[1] !== undefined && import.meta.url === pathToFileURL(argv[1]).href) {
  await run();
}
