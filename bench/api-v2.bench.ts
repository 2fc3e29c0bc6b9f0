/**
 * v2 API throughput on loopback (autocannon, 64 connections): get_address_balance, get_tx, get_tx_unspent
 * (an address with 1,000+ txs), get_block, the same server's trivial route (framework ceiling) and the
 * node's own getrawtransaction over RPC for the same txids. Chain: make-chain.sh with OUTPOINT_BENCH_NTX
 * transactions (default 100,000), cached under .bench-cache/ with its SQLite index.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { freePort } from '../test/helpers/free-port.js';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { addressToScript, getNetworkParams } from '../src/chains/addressing.js';
import { MemoryEventBus, noPrices, silentLogger } from '../src/core/index.js';
import { createHttpApp } from '../src/http/create-http-app.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/node-client.js';
import { RpcBroadcaster } from '../src/node/rpc-broadcaster.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { RpcClient } from '../src/node/rpc-client.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const NTX = Number(process.env['OUTPOINT_BENCH_NTX'] ?? 100_000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 64;
const CACHE = new URL('../.bench-cache/', import.meta.url).pathname;
const LITECOIND = process.env['LITECOIND'] ?? '/usr/lib/litecoin/litecoind';
const MAKE_CHAIN = new URL('../../shared/tools/regtest-chain/make-chain.sh', import.meta.url).pathname;
const params = getNetworkParams('LTCTEST', 'regtest');

async function run_(cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${cmd} exited with ${code}`);
}

async function chainDir(): Promise<string> {
  const dir = join(CACHE, `chain-${NTX}`);
  if (!existsSync(join(dir, 'chain-summary.json'))) {
    console.log(`creating a ${NTX}-transaction regtest chain in ${dir} (about ${Math.ceil(NTX / 700)} s)`);
    await run_('bash', [MAKE_CHAIN, dir, String(NTX)], { LTC_RPCPORT: String(await freePort()) });
  }
  return dir;
}

async function measure(label: string, url: string, paths: readonly string[], extra: Partial<Parameters<typeof autocannon>[0]> = {}): Promise<void> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
    ...extra,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms` +
      (bad ? `   (${bad} failed)` : ''),
  );
}

export async function run(): Promise<void> {
  const dir = await chainDir();
  const rpcPort = await freePort();
  const daemon = spawn(LITECOIND, [`-datadir=${dir}`, `-rpcport=${rpcPort}`, '-printtoconsole=0'], { stdio: 'ignore' });
  const rpcUrl = `http://peer:peerpass@127.0.0.1:${rpcPort}/`;
  const rpc = new RpcClient({ url: rpcUrl, retries: 0, maxSockets: 8 });
  const store = new SqliteStore({ path: join(CACHE, `index-${NTX}.db`) });
  try {
    for (let i = 0; ; i++) {
      try {
        await rpc.call('getblockcount');
        break;
      } catch {
        if (i > 600) throw new Error('litecoind did not start');
        await delay(100);
      }
    }
    await store.migrate();
    const network = store.network('LTCTEST');
    const indexer = new NetworkIndexer({ params, source: new RpcChainSource(new NodeClient(rpc)), store: network, bus: new MemoryEventBus(), logger: silentLogger });
    const started = Date.now();
    for (let i = 0; i < 50 && (await network.getTip())?.hash !== (await rpc.call<string>('getbestblockhash')); i++) await indexer.syncOnce();
    console.log(`index ready (${((Date.now() - started) / 1000).toFixed(1)} s to catch up), tip ${(await network.getTip())?.height}`);

    const summary = JSON.parse(readFileSync(join(dir, 'chain-summary.json'), 'utf8')) as { hot_addresses: string[] };
    let hot = { address: '', txs: 0 };
    for (const address of summary.hot_addresses) {
      const totals = await network.getAddressTotals(addressToScript(params, address));
      if (totals.txCount > hot.txs) hot = { address, txs: totals.txCount };
    }
    const tip = (await network.getTip())!;
    const blocks: string[] = [];
    const txids: string[] = [];
    for (let h = 1; h <= tip.height; h++) {
      const block = await network.getBlockByHeight(h);
      blocks.push(block!.hash);
      if (txids.length < 2000) txids.push(...block!.txids.slice(1, 40));
    }
    console.log(`hot address ${hot.address} with ${hot.txs} txs; ${txids.length} txids, ${blocks.length} blocks rotated`);

    const app = await createHttpApp({
      networks: new Map([['LTCTEST', { params, reader: network }]]),
      prices: noPrices,
      broadcaster: new RpcBroadcaster(new Map([['LTCTEST', rpc]])),
      publicUrl: 'http://127.0.0.1',
      rateLimitPerSecond: 0,
      redisUrl: null,
      logger: silentLogger,
      shortLinks: store.shortAddresses(),
    });
    app.get('/ping', async () => ({ ok: true }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      console.log(`api-v2 bench: ${NTX} txs, ${CONNECTIONS} connections, ${SECONDS} s each`);
      await measure('trivial route (framework ceiling)', base, ['/ping']);
      await measure('get_address_balance', base, [`/api/v2/get_address_balance/LTCTEST/${hot.address}`]);
      await measure('get_tx', base, txids.map((t) => `/api/v2/get_tx/LTCTEST/${t}`));
      await measure(`get_tx_unspent (${hot.txs} txs)`, base, [`/api/v2/get_tx_unspent/LTCTEST/${hot.address}`]);
      await measure('get_block', base, blocks.map((b) => `/api/v2/get_block/LTCTEST/${b}`));
      let i = 0;
      await measure('node getrawtransaction (RPC)', `http://127.0.0.1:${rpcPort}`, ['/'], {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('peer:peerpass').toString('base64')}`, 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, method: 'POST', path: '/', body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getrawtransaction', params: [txids[i++ % txids.length], true] }) }) }],
      });
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    await rpc.call('stop').catch(() => undefined);
    rpc.close();
    await new Promise((resolve) => daemon.once('exit', resolve));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
