/**
 * v2 API throughput on loopback (autocannon, 64 connections): get_address_balance, get_tx, get_tx_unspent
 * (an address with 1,000+ txs), get_block, the same server's trivial route (framework ceiling) and the
 * node's own getrawtransaction over RPC for the same txids. Chain: bench/bench-chain.ts (make-chain.sh with
 * OUTPOINT_BENCH_NTX transactions, default 100,000), cached under .bench-cache/ with its SQLite index.
 */
import autocannon from 'autocannon';
import { buildHttpApp } from '../src/main/wiring/http-wiring.js';
import { benchAppDeps, benchChain, NTX } from './bench-chain.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 64;

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
  const chain = await benchChain();
  const { rpcPort, hot, txids, blocks, close } = chain;
  try {
    const app = await buildHttpApp(benchAppDeps(chain));
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
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
