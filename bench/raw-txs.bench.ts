/**
 * `[store] raw_txs = "store"` vs `"node"` on the bench chain (bench/bench-chain.ts, 100,000 txs, litecoind without
 * -txindex unless OUTPOINT_BENCH_TXINDEX=1): bytes per tx of the SQLite file both ways (each copy VACUUMed INTO a fresh
 * file, so free pages do not count), then v2 get_tx, the explorer's tx page and v3 unspent_outputs (hot address, pages
 * 1..20) through three apps in the same run: store mode, node mode with the default 64 MiB cache (warm after the first
 * pass over the rotation) and node mode without a cache (every request asks the node: the cold worst case).
 * autocannon, 32 connections, BENCH_SECONDS (default 8) per case and app; ratios are node / store.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { silentLogger, type NetworkId, type NetworkReader } from '../src/core/index.js';
import type { NetworkParams } from '../src/chains/addressing.js';
import { buildHttpApp, rateCounters } from '../src/main/wiring/http-wiring.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { NodeRawTxSource } from '../src/node/node-raw-tx-source.js';
import { AccountService } from '../src/services/accounts/account-service.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { DEFAULT_ASSET_DIR, freshWebAssets } from '../src/web/build/web-build.js';
import { explorerModule } from '../src/web/explorer/explorer-module.js';
import { createWeb } from '../src/web/register-web.js';
import { WebAssets } from '../src/web/shell/assets.js';
import { benchAppDeps, benchChain, benchParams, BENCH_INDEX, NTX } from './bench-chain.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const CONNECTIONS = 32;

/** A fixed shuffle (same order every run). */
function shuffled<T>(items: T[]): T[] {
  let seed = 42;
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

async function measure(url: string, paths: readonly string[], headers: Record<string, string>, seconds: number): Promise<{ rps: number; p99: number; failed: number }> {
  let i = 0;
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }] });
  return { rps: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts };
}

/** Bytes of the file a VACUUM INTO writes (the live pages only). */
function vacuumedBytes(store: SqliteStore, dir: string, name: string): number {
  const file = join(dir, name);
  store.connection.exec(`VACUUM INTO '${file}'`);
  return statSync(file).size;
}

export async function run(): Promise<void> {
  const chain = await benchChain();
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-rawtxs-bench-'));
  const servers: { close(): Promise<unknown> }[] = [];
  const nodeStore = (() => {
    chain.store.connection.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(BENCH_INDEX, join(dir, 'node.db'));
    return new SqliteStore({ path: join(dir, 'node.db'), rawTxs: 'node' });
  })();
  try {
    await nodeStore.migrate();
    const { deleted } = await nodeStore.applyRawTxMode('node');
    const storeBytes = vacuumedBytes(chain.store, dir, 'store-vacuumed.db');
    const nodeBytes = vacuumedBytes(nodeStore, dir, 'node-vacuumed.db');
    console.log(`raw-txs bench: ${NTX} txs, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(`disk: store ${(storeBytes / NTX).toFixed(0)} B/tx, node ${(nodeBytes / NTX).toFixed(0)} B/tx (${deleted} raw txs deleted; ratio ${(nodeBytes / storeBytes).toFixed(2)})`);

    const rpc = new NodeClient(chain.rpc);
    const warm = new NodeRawTxSource(rpc, { network: 'LTCTEST', features: benchParams.features });
    const cold = new NodeRawTxSource(rpc, { network: 'LTCTEST', features: benchParams.features, cacheBytes: 0 });
    const { manifest } = await freshWebAssets();
    const deps = benchAppDeps(chain);
    const apps: { label: string; url: string; key: string; source: NodeRawTxSource | null }[] = [];
    for (const [label, store, source] of [['store', chain.store, null], ['node, 64 MiB cache', nodeStore, warm], ['node, no cache', nodeStore, cold]] as const) {
      const accounts = new AccountService(store.accounts());
      await accounts.setPlan('bench', { maxDailyRequests: 1_000_000_000 });
      const { key } = await accounts.createAccount(`bench-${label.replace(/\W/g, '')}-${Date.now()}@outpoint.test`, 'bench');
      const reader = store.network('LTCTEST');
      const networks = new Map<NetworkId, { params: NetworkParams; reader: NetworkReader; rawTxs?: NodeRawTxSource }>([['LTCTEST', { params: benchParams, reader, ...(source ? { rawTxs: source } : {}) }]]);
      const web = createWeb({ publicUrl: 'http://127.0.0.1', realtimeKey: 'bench', rateLimitPerSecond: 0, rateCounters: rateCounters(null), logger: silentLogger, assets: new WebAssets(manifest, DEFAULT_ASSET_DIR) }, [explorerModule]);
      const app = await buildHttpApp({ ...deps, networks, shortLinks: store.shortAddresses(), accounts: store.accounts(), extensions: [web] });
      servers.push(app);
      apps.push({ label, url: await app.listen({ port: 0, host: '127.0.0.1' }), key, source });
    }
    // Every tx of the chain in a shuffled order: consecutive requests hit different blocks (the cache's worst case) and
    // no rotation repeats within a run (the services' own view cache of 10,000 txs does not hide the raw reads).
    const all = shuffled((await Promise.all(chain.blocks.map((b) => chain.network.getBlockByHash(b)))).flatMap((b) => b!.txids));
    const cases: [string, string[]][] = [
      ['v2 get_tx', all.map((t) => `/api/v2/get_tx/LTCTEST/${t}`)],
      ['explorer tx page', all.map((t) => `/ltctest/tx/${t}`)],
      ['v3 unspent_outputs (hot address, pages 1-20)', Array.from({ length: 20 }, (_, i) => `/api/v3/unspent_outputs/LTCTEST/${chain.hot.address}/${i + 1}`)],
    ];
    for (const [label, paths] of cases) {
      console.log(label);
      // Each app once briefly (JIT, page cache), then two slices per app in alternating order: load from elsewhere on the
      // 2 shared cores hits every app alike.
      for (const app of apps) await measure(app.url, paths.length > 1000 ? paths.slice(-1000) : paths, { 'api-key': app.key }, 1);
      const totals = apps.map(() => ({ requests: 0, p99: 0, failed: 0, asked: 0 }));
      let offset = 0;
      for (const order of [apps, [...apps].reverse()]) {
        for (const app of order) {
          const t = totals[apps.indexOf(app)]!;
          const before = app.source?.requests ?? 0;
          const slice = paths.length > 100_000 / 2 ? paths.slice(offset, (offset += 12_000)) : paths;
          const r = await measure(app.url, slice, { 'api-key': app.key }, SECONDS / 2);
          t.requests += r.rps * (SECONDS / 2);
          t.p99 = Math.max(t.p99, r.p99);
          t.failed += r.failed;
          t.asked += (app.source?.requests ?? 0) - before;
        }
      }
      const base = totals[0]!.requests / SECONDS;
      apps.forEach((app, i) => {
        const t = totals[i]!;
        const rps = t.requests / SECONDS;
        const asked = app.source ? `   node requests ${t.asked}` : '';
        console.log(`  ${app.label.padEnd(20)} ${rps.toFixed(0).padStart(7)} req/s   p99 ${String(t.p99).padStart(5)} ms   ${(rps / base).toFixed(2)}× store${asked}${t.failed ? `   (${t.failed} failed)` : ''}`);
      });
    }
  } finally {
    for (const server of servers) await server.close();
    await nodeStore.close();
    rmSync(dir, { recursive: true, force: true });
    await chain.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
