/**
 * The benchmark chain (make-chain.sh, OUTPOINT_BENCH_NTX transactions, default 100,000) with its SQLite index,
 * both cached under .bench-cache/: litecoind serving it, the index caught up, and what the benches rotate
 * through (the hot address with the longest history, txids, block hashes).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { addressToScript, getNetworkParams } from '../src/chains/addressing.js';
import { MemoryEventBus, noPrices, silentLogger, type ChainStore, type NetworkStore } from '../src/core/index.js';
import type { HttpWiring } from '../src/main/wiring/http-wiring.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { RpcBroadcaster } from '../src/node/rpc-broadcaster.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { RpcClient } from '../src/node/rpc/rpc-client.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { freePort } from '../test/helpers/free-port.js';

export const NTX = Number(process.env['OUTPOINT_BENCH_NTX'] ?? 100_000);
const CACHE = new URL('../.bench-cache/', import.meta.url).pathname;
const LITECOIND = process.env['LITECOIND'] ?? '/usr/lib/litecoin/litecoind';
const MAKE_CHAIN = new URL('./regtest-chain/make-chain.sh', import.meta.url).pathname;
export const benchParams = getNetworkParams('LTCTEST', 'regtest');
/** The cached SQLite index of the chain (bench/api-v3.bench.ts reads it without a node). */
export const BENCH_INDEX = join(CACHE, `index-${NTX}.db`);
const CHAIN_DIR = join(CACHE, `chain-${NTX}`);

export interface BenchChain {
  readonly store: SqliteStore;
  readonly network: NetworkStore;
  readonly rpc: RpcClient;
  readonly rpcPort: number;
  /** The hot address with the most confirmed txs. */
  readonly hot: { readonly address: string; readonly txs: number };
  /** Up to 2,000 non-coinbase txids from the first blocks. */
  readonly txids: readonly string[];
  /** Every block hash above the genesis. */
  readonly blocks: readonly string[];
  close(): Promise<void>;
}

async function exec(cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${cmd} exited with ${code}`);
}

async function chainDir(): Promise<string> {
  const dir = CHAIN_DIR;
  if (!existsSync(join(dir, 'chain-summary.json'))) {
    console.log(`creating a ${NTX}-transaction regtest chain in ${dir} (about ${Math.ceil(NTX / 700)} s)`);
    await exec('bash', [MAKE_CHAIN, dir, String(NTX)], { LTC_RPCPORT: String(await freePort()) });
  }
  return dir;
}

/** litecoind serving the bench chain (made first if missing), answering RPC; `stop` ends it cleanly. */
export async function chainNode(extraArgs: readonly string[] = []): Promise<{ rpc: RpcClient; rpcPort: number; stop: () => Promise<void> }> {
  const dir = await chainDir();
  const rpcPort = await freePort();
  const daemon = spawn(LITECOIND, [`-datadir=${dir}`, `-rpcport=${rpcPort}`, '-printtoconsole=0', ...extraArgs], { stdio: 'ignore' });
  // Retries as in production: litecoind closes a keep-alive socket idle for its -rpcservertimeout (30 s), and the
  // first request after a long index build (1M txs: minutes) can meet one closed under it (ECONNRESET).
  const rpc = new RpcClient({ url: `http://peer:peerpass@127.0.0.1:${rpcPort}/`, retries: 2, backoffMs: 50, maxSockets: 8 });
  const stop = async (): Promise<void> => {
    await rpc.call('stop').catch(() => undefined);
    rpc.close();
    await new Promise((resolve) => daemon.once('exit', resolve));
  };
  for (let i = 0; ; i++) {
    try {
      await rpc.call('getblockcount');
      return { rpc, rpcPort, stop };
    } catch {
      if (i > 600) {
        await stop();
        throw new Error('litecoind did not start');
      }
      await delay(100);
    }
  }
}

/** `nodeArgs`: more litecoind options (the Fulcrum bench's -maxtipage). */
export async function benchChain(nodeArgs: readonly string[] = []): Promise<BenchChain> {
  const { rpc, rpcPort, stop } = await chainNode(nodeArgs);
  const store = new SqliteStore({ path: BENCH_INDEX });
  const close = async (): Promise<void> => {
    await store.close();
    await stop();
  };
  try {
    await store.migrate();
    const network = store.network('LTCTEST');
    const indexer = new NetworkIndexer({ params: benchParams, source: new RpcChainSource(new NodeClient(rpc)), store: network, bus: new MemoryEventBus(), logger: silentLogger });
    const started = Date.now();
    for (let i = 0; i < 50 && (await network.getTip())?.hash !== (await rpc.call<string>('getbestblockhash')); i++) await indexer.syncOnce();
    console.log(`index ready (${((Date.now() - started) / 1000).toFixed(1)} s to catch up), tip ${(await network.getTip())?.height}`);

    const hot = await hotAddress(network);
    const tip = (await network.getTip())!;
    const blocks: string[] = [];
    const txids: string[] = [];
    for (let h = 1; h <= tip.height; h++) {
      const block = await network.getBlockByHeight(h);
      blocks.push(block!.hash);
      if (txids.length < 2000) txids.push(...block!.txids.slice(1, 40));
    }
    console.log(`hot address ${hot.address} with ${hot.txs} txs; ${txids.length} txids, ${blocks.length} blocks rotated`);
    return { store, network, rpc, rpcPort, hot, txids, blocks, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What make-chain.sh wrote about the chain: its hot addresses and a sample of 500 of all the addresses it used. */
export function chainSummary(): { hot_addresses: string[]; sample_addresses: string[] } {
  return JSON.parse(readFileSync(join(CHAIN_DIR, 'chain-summary.json'), 'utf8')) as { hot_addresses: string[]; sample_addresses: string[] };
}

/** Of the chain's hot addresses (chain-summary.json), the one with the most confirmed txs in the index. */
export async function hotAddress(network: NetworkStore): Promise<{ address: string; txs: number }> {
  const summary = chainSummary();
  let hot = { address: '', txs: 0 };
  for (const address of summary.hot_addresses) {
    const totals = await network.getAddressTotals(addressToScript(benchParams, address));
    if (totals.txCount > hot.txs) hot = { address, txs: totals.txCount };
  }
  return hot;
}

/** The v2 app's dependencies over the bench chain (no prices, no limits), for benches that add to them. */
export function benchAppDeps(chain: { store: Pick<ChainStore, 'shortAddresses'>; network: NetworkStore; rpc: RpcClient }): HttpWiring {
  return {
    networks: new Map([['LTCTEST', { params: benchParams, reader: chain.network }]]),
    prices: noPrices,
    broadcaster: new RpcBroadcaster(new Map([['LTCTEST', chain.rpc]])),
    publicUrl: 'http://127.0.0.1',
    rateLimitPerSecond: 0,
    redisUrl: null,
    logger: silentLogger,
    shortLinks: chain.store.shortAddresses(),
  };
}
