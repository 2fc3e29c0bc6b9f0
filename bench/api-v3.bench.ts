/**
 * v3 API throughput on loopback (autocannon, 64 connections) for balance, transactions page 1 and
 * transaction, each measured twice: through the real v3 app (API-KEY check + daily quota counting) and
 * through the same routes and services without the key plugin, so the auth/quota layer's cost shows.
 * Also the mempool projection time for 50,000 synthetic transactions with ancestor chains.
 * Reads the cached 100k-tx regtest index of bench/api-v2.bench.ts (.bench-cache/index-N.db; run that
 * bench once to build it). No node is needed: v3 reads only the index.
 */
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { noPrices, silentLogger } from '../src/core/index.js';
import { buildHttpApp, usageCounter } from '../src/main/wiring/http-wiring.js';
import { installCors } from '../src/http/plugins/cors.plugin.js';
import { installFormBody } from '../src/http/plugins/form-body.plugin.js';
import { installJsonp } from '../src/http/plugins/jsonp.plugin.js';
import { addressRoutes } from '../src/http/v3/address.routes.js';
import { txRoutes } from '../src/http/v3/tx.routes.js';
import { AccountService } from '../src/services/accounts/account-service.js';
import { createServices } from '../src/services/create-services.js';
import { projectMempoolBlocks } from '../src/services/network/projection/mempool-projection.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { BENCH_INDEX, benchParams, hotAddress, NTX } from './bench-chain.js';
import { syntheticMempool } from './synthetic-mempool.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 64;
const params = benchParams;
const noBroadcast = { broadcast: () => Promise.reject(new Error('not used')) };

async function measure(label: string, url: string, paths: readonly string[], headers: Record<string, string>): Promise<{ rps: number; p99: number }> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(40)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms` +
      (bad ? `   (${bad} failed)` : ''),
  );
  return { rps: result.requests.average, p99: result.latency.p99 };
}

function projectionTimes(): void {
  const entries = syntheticMempool(50_000);
  const times: number[] = [];
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    projectMempoolBlocks(entries, { maxBlockWeight: params.maxBlockWeight, blocks: 6, minFeeRate: 1 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`mempool projection, 50,000 txs, 6 blocks:  median ${times[3]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[6]!.toFixed(0)} ms`);
}

export async function run(): Promise<void> {
  projectionTimes();
  if (!existsSync(BENCH_INDEX)) throw new Error(`${BENCH_INDEX} is missing: run bench/api-v2.bench.ts once to build the cached index`);
  const store = new SqliteStore({ path: BENCH_INDEX });
  await store.migrate();
  const network = store.network('LTCTEST');
  const hot = await hotAddress(network);
  const tip = (await network.getTip())!;
  const txids: string[] = [];
  for (let h = tip.height; h > 0 && txids.length < 2000; h--) txids.push(...(await network.getBlockByHeight(h))!.txids.slice(1, 40));

  const accounts = new AccountService(store.accounts());
  await accounts.setPlan('bench', { maxDailyRequests: 1_000_000_000 });
  const email = `bench-${Date.now()}@outpoint.test`;
  const { key } = await accounts.createAccount(email, 'bench');

  const networks = new Map([['LTCTEST' as const, { params, reader: network }]]);
  const withKey = await buildHttpApp({
    networks, prices: noPrices, broadcaster: noBroadcast, publicUrl: 'http://127.0.0.1', rateLimitPerSecond: 0, redisUrl: null,
    logger: silentLogger, shortLinks: store.shortAddresses(), accounts: store.accounts(),
  });
  // The same v3 routes over the same services, without the API-KEY plugin: the baseline.
  const services = createServices({
    networks, prices: noPrices, broadcaster: noBroadcast, shortLinks: store.shortAddresses(), logger: silentLogger,
    accounts: { store: store.accounts(), usage: usageCounter(store.accounts(), null, silentLogger) },
  });
  const v3 = services.accounts!;
  const bare = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 } });
  // The app-wide hooks createHttpApp installs, so only the key plugin differs.
  installCors(bare);
  installJsonp(bare);
  installFormBody(bare);
  await bare.register(async (app) => {
    addressRoutes(app, { services, accounts: v3, now: () => Math.floor(Date.now() / 1000) });
    txRoutes(app, { services, accounts: v3, now: () => Math.floor(Date.now() / 1000) });
  }, { prefix: '/api/v3' });

  // The layer's own CPU per request, free of loopback and scheduling noise: the key check and the quota count
  // exactly as the plugin runs them on a warm cache (the HTTP figures below vary by ±20 % on shared cores).
  const usage = v3.usage;
  await v3.keys.authenticate(key);
  await usage.hit(1, Math.floor(Date.now() / 1000));
  const loops = 500_000;
  const started = performance.now();
  for (let i = 0; i < loops; i++) {
    const principal = v3.keys.cached(key)!;
    usage.hitCached(principal.account.id, Math.floor(Date.now() / 1000));
  }
  const layerUs = ((performance.now() - started) * 1000) / loops;
  console.log(`auth + quota layer, in process: ${layerUs.toFixed(2)} µs per request`);

  const keyed = await withKey.listen({ port: 0, host: '127.0.0.1' });
  const plain = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    console.log(`api-v3 bench: ${NTX} txs, hot address ${hot.txs} txs, ${CONNECTIONS} connections, ${SECONDS} s each`);
    const cases: [string, string[]][] = [
      ['balance', [`/api/v3/balance/LTCTEST/${hot.address}`]],
      ['transactions page 1', [`/api/v3/transactions/LTCTEST/${hot.address}/1`]],
      ['transaction', txids.map((t) => `/api/v3/transaction/LTCTEST/${t}`)],
    ];
    for (const [label, paths] of cases) {
      // Alternating runs, best of two each: the 2 shared cores make single runs noisy.
      const best = (a: { rps: number; p99: number }, b: { rps: number; p99: number }) => (a.rps >= b.rps ? a : b);
      const base1 = await measure(`${label} (no key check)`, plain, paths, {});
      const auth1 = await measure(`${label} (API-KEY + quota)`, keyed, paths, { 'api-key': key });
      const base = best(base1, await measure(`${label} (no key check)`, plain, paths, {}));
      const auth = best(auth1, await measure(`${label} (API-KEY + quota)`, keyed, paths, { 'api-key': key }));
      console.log(
        `${''.padEnd(40)} measured difference ${(((base.rps - auth.rps) / base.rps) * 100).toFixed(1)} % req/s; ` +
          `layer CPU ${((layerUs / (1e6 / base.rps)) * 100).toFixed(1)} % of a request at the baseline rate`,
      );
    }
  } finally {
    await withKey.close();
    await bare.close();
    await services.close();
    for (const k of await store.accounts().findAccountByEmail(email).then((a) => (a ? accounts.keys(a.id) : []))) await store.accounts().revokeKey(k.id, 0);
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
