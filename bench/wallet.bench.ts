/**
 * Wallets (issue 31's speed targets; results in docs/benchmarks.md, "Wallets"):
 * 1. A wallet of 1,000 used addresses and 10,000 txs (bench/wallet-chain.ts) on SQLite and PostgreSQL, through the
 *    real v3 app on loopback, one request at a time: the summary cold (derivation included, on the derivation thread
 *    once it is up) and warm, pages of transactions (first and deep), unspent outputs, used addresses; for a
 *    single-key wallet and a 3-of-5 multisig one (5 derivations an address). Targets: summary < 300 ms, a page
 *    < 100 ms, warm. Then what the summary's external flows cost at 10,000 txs: read after each new tip, kept while
 *    it stays.
 * 2. Wallet summaries at concurrency 8 over the 100k-tx bench chain's busiest scripts (its 200 hot addresses: the
 *    chain's keys are not HD-derived, so they are fed as one chain to the same gap scan and reads,
 *    WalletService.summaryOfChains). Target: at least 50 summaries/s. Needs the cached index of bench/api-v2.bench.ts.
 * 3. The mempool projection 6 blocks deep (the spec's) and as deep as fee estimates follow it (144, 576, 1,008).
 * `BENCH_SECONDS` (default 10) for part 2, `WALLET_BENCH_ENGINES` (default "sqlite,postgres") for part 1.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { HDKey } from '@scure/bip32';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { addressToScript } from '../src/chains/addressing.js';
import { noPrices, silentLogger, type ChainStore, type NetworkId, type NetworkReader } from '../src/core/index.js';
import { buildHttpApp } from '../src/main/wiring/http-wiring.js';
import { generateApiKey } from '../src/services/accounts/api-keys.js';
import { createServices } from '../src/services/create-services.js';
import type { WalletChains } from '../src/services/wallets/wallet-keys.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { BENCH_INDEX, benchParams, chainSummary } from './bench-chain.js';
import { projectMempoolBlocks } from '../src/services/network/projection/mempool-projection.js';
import { syntheticMempool } from './synthetic-mempool.js';
import { benchMultisig, benchWallet, MULTISIG_PARAMS, WALLET_PARAMS, writeWalletChain, type WalletChainWritten } from './wallet-chain.js';
import type { NetworkParams } from '../src/chains/network-params.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ENGINES = (process.env['WALLET_BENCH_ENGINES'] ?? 'sqlite,postgres').split(',');
const RUNS = 20;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (x: number): string => `${x.toFixed(1).padStart(7)} ms`;

async function timed(url: string, key: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'api-key': key } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

async function withStore<T>(engine: string, fn: (store: ChainStore) => Promise<T>): Promise<T> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'outpoint-wallet-bench-'));
    const store = new SqliteStore({ path: join(dir, 'store.db') });
    try {
      return await fn(store);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const server = await startPostgres();
  const store = new PostgresStore({ connectionString: server.url, maxConnections: 8 });
  try {
    return await fn(store);
  } finally {
    await store.close();
    await server.stop();
  }
}

/** One request, timed RUNS times; the median and p95. */
async function table(engine: string, base: string, key: string, rows: readonly (readonly [string, string])[]): Promise<void> {
  for (const [label, path] of rows) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(base + path, key));
    console.log(`${engine}: ${label.padEnd(50)} median ${ms(median(times))}   p95 ${ms(p95(times))}`);
  }
}

const WALLET_ROWS = [
  ['summary, warm', ''],
  ['transactions page 1', '/transactions/1'],
  ['transactions page 500 (offset 4,990)', '/transactions/500'],
  ['transactions page 1000 (the last)', '/transactions/1000'],
  ['unspent_outputs page 1', '/unspent_outputs/1'],
  ['addresses (all 1,000)', '/addresses'],
] as const;

/** The summary cold (derivation included: `keys` derivations an address), then the warm table, for one wallet. */
async function walletTable(engine: string, label: string, base: string, key: string, keys: number): Promise<void> {
  const started = performance.now();
  const summary = await (await fetch(base, { headers: { 'api-key': key } })).json() as { data: { used_addresses: number; txs_total: number } };
  const cold = performance.now() - started;
  console.log(`${engine} ${label}: ${summary.data.used_addresses} used addresses, ${summary.data.txs_total} txs`);
  const addresses = summary.data.used_addresses + 40;
  console.log(`${engine} ${label}: summary, cold (derivation of ${addresses} addresses, ${addresses * keys} keys, included) ${ms(cold)}`);
  await table(`${engine} ${label}`, base, key, WALLET_ROWS);
}

/**
 * What the summary's external flows cost at 10,000 txs: after a new tip, the set's confirmed ids (txs_total) and its
 * flows are read again; while the tip stays both are kept (confirmed-ids-memo.ts). Each run connects a block first.
 */
async function flowsCost(engine: string, network: NetworkReader, chain: WalletChainWritten, base: string, key: string): Promise<void> {
  const sets = network.scriptSets;
  const fresh = { ids: [] as number[], flows: [] as number[], kept: [] as number[], summary: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    await chain.extend();
    let t = performance.now();
    await sets.getScriptSetTxCount(chain.scripts);
    fresh.ids.push(performance.now() - t);
    t = performance.now();
    await sets.getScriptSetFlows(chain.scripts);
    fresh.flows.push(performance.now() - t);
    t = performance.now();
    await sets.getScriptSetFlows(chain.scripts);
    fresh.kept.push(performance.now() - t);
    await chain.extend();
    fresh.summary.push(await timed(base, key));
  }
  const line = (label: string, xs: number[]) => console.log(`${engine}: ${label.padEnd(50)} median ${ms(median(xs))}   p95 ${ms(p95(xs))}`);
  line('10,000 txs: confirmed ids after a new tip (DISTINCT)', fresh.ids);
  line('10,000 txs: external flows after a new tip', fresh.flows);
  line('10,000 txs: external flows, tip unchanged (kept)', fresh.kept);
  line('summary, first after a new tip (ids + flows read)', fresh.summary);
}

async function syntheticWallet(engine: string): Promise<void> {
  await withStore(engine, async (store) => {
    await store.migrate();
    const single = store.network('BTCTEST');
    const multi = store.network('LTCTEST');
    let started = performance.now();
    const singleChain = await writeWalletChain(single, WALLET_PARAMS, benchWallet());
    console.log(`${engine}: single-key wallet chain written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const multiChain = await writeWalletChain(multi, MULTISIG_PARAMS, benchMultisig());
    console.log(`${engine}: 3-of-5 multisig wallet chain written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const accounts = store.accounts();
    await accounts.setPlan('bench', 1_000_000_000, 1);
    const account = await accounts.createAccount({ email: 'bench@x.io', plan: 'bench', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true });
    const key = generateApiKey();
    await accounts.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
    const app = await buildHttpApp({
      networks: new Map<NetworkId, { params: NetworkParams; reader: NetworkReader }>([
        ['BTCTEST', { params: WALLET_PARAMS, reader: single }], ['LTCTEST', { params: MULTISIG_PARAMS, reader: multi }],
      ]),
      prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) }, publicUrl: 'http://127.0.0.1', rateLimitPerSecond: 0,
      redisUrl: null, logger: silentLogger, shortLinks: store.shortAddresses(), accounts,
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const v3 = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v3`;
      const singleBase = `${v3}/xpub/BTCTEST/${encodeURIComponent(singleChain.wallet)}`;
      const multiBase = `${v3}/xpub/LTCTEST/${encodeURIComponent(multiChain.wallet)}`;
      // Derivation runs on worker threads (issue 46): one started for a one-address wallet of another key first, so the
      // cold figures below are the derivation's, not a thread's start (~50 ms compiled, a second or more through tsx).
      const other = new HDKey({ versions: { public: 0x043587cf, private: 0x04358394 }, publicKey: HDKey.fromMasterSeed(Buffer.alloc(32, 7)).publicKey!, chainCode: new Uint8Array(32).fill(5) });
      started = performance.now();
      await timed(`${v3}/xpub/BTCTEST/${other.publicExtendedKey}?gap=1`, key.key);
      console.log(`${engine}: a one-address wallet, the derivation thread started with it ${ms(performance.now() - started)}`);
      await walletTable(engine, 'single key', singleBase, key.key, 1);
      await walletTable(engine, '3-of-5 multisig', multiBase, key.key, 5);
      // A reference under the same load: one address of the wallet through v3's address routes.
      const one = (await (await fetch(`${singleBase}/addresses`, { headers: { 'api-key': key.key } })).json() as { data: { addresses: { address: string }[] } }).data.addresses[0]!.address;
      await table(engine, v3, key.key, [
        ['reference: v3 address_summary of one address', `/address_summary/BTCTEST/${one}`], ['reference: v3 transactions of one address', `/transactions/BTCTEST/${one}/1`],
      ]);
      await flowsCost(engine, single, singleChain, singleBase, key.key);
    } finally {
      await app.close();
    }
  });
}

/** The bench chain's 200 hot addresses, busiest first, as the one chain of a wallet. */
async function hotChains(reader: NetworkReader): Promise<WalletChains> {
  const scripts = chainSummary().hot_addresses.map((a) => addressToScript(benchParams, a));
  const totals = await reader.scriptSets.getScriptTotals(scripts);
  const busiest = scripts.map((s, i) => ({ s, n: totals[i]!.txCount })).sort((a, b) => b.n - a.n).map((x) => x.s);
  // Past the hot scripts: OP_RETURN scripts (nobody's address, never used), so the scan ends after the gap.
  const scriptAt = (i: number): Uint8Array => busiest[i] ?? Uint8Array.of(0x6a, 0x02, i & 0xff, (i >> 8) & 0xff);
  return {
    descriptor: "the 100k bench chain's hot addresses", chains: 1, width: 1, chainLength: Number.MAX_SAFE_INTEGER, addressForm: 0, derivationsPerIndex: 1, lastUsed: [-1],
    range: async (_chain, from, to) => Array.from({ length: to - from }, (_, k) => scriptAt(from + k)),
    script: (_chain, index) => scriptAt(index),
    path: (_chain, index) => `0/${index}`,
  };
}

async function busiestKeys(): Promise<void> {
  if (!existsSync(BENCH_INDEX)) {
    console.log(`no ${BENCH_INDEX}: run bench/api-v2.bench.ts once to build the 100k chain's index`);
    return;
  }
  const store = new SqliteStore({ path: BENCH_INDEX });
  try {
    const services = createServices({
      networks: new Map([['LTCTEST', { params: benchParams, reader: store.network('LTCTEST') }]]),
      prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) },
      shortLinks: store.shortAddresses(), logger: silentLogger,
    });
    const chains = await hotChains(store.network('LTCTEST'));
    const first = await services.wallets.summaryOfChains('LTCTEST', chains);
    console.log(`100k chain: a wallet of its ${first.usedAddresses} busiest scripts, ${first.txsTotal} txs`);
    const latencies: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await services.wallets.summaryOfChains('LTCTEST', chains);
        latencies.push(performance.now() - started);
      }
    }));
    console.log(`100k chain: ${(latencies.length / SECONDS).toFixed(1)} summaries/s at concurrency 8 (target >= 50)   p50 ${ms(median(latencies))}   p95 ${ms(p95(latencies))}`);
    await services.close();
  } finally {
    await store.close();
  }
}

/** What following the mempool deep for fee estimates costs (the projector does it only while fees are asked for). */
function projectionDepths(): void {
  for (const n of [50_000, 200_000]) {
    const entries = syntheticMempool(n);
    const times = new Map<number, number[]>([[6, []], [144, []], [576, []], [1_008, []]]);
    // Alternating depths in one run: the machine's load shifts them all alike.
    for (let run = 0; run < 5; run++) {
      for (const [depth, list] of times) {
        const started = performance.now();
        projectMempoolBlocks(entries, { maxBlockWeight: 4_000_000, blocks: depth, minFeeRate: 1 });
        list.push(performance.now() - started);
      }
    }
    console.log(`projection of ${n} txs: ${[...times].map(([depth, list]) => `${depth} blocks ${ms(median(list))}`).join('   ')}`);
  }
}

console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (${process.version})`);
for (const engine of ENGINES) await syntheticWallet(engine);
await busiestKeys();
projectionDepths();
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
