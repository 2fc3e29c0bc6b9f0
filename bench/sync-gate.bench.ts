/**
 * What the initial-sync gate adds to every chain read: the same reads straight and through the GatedNetworkReader
 * (network ready, status cached: the path every request takes once a network is synced), on a reader that answers at
 * once (the gate's own cost) and on a SQLite store, and
 * the whole get_address_balance request (createHttpApp, in-process inject) for scale. A 2,000-block chain from the
 * conformance block builder, 200 txs to one address; each figure is the best of 7 alternating rounds of 50,000 reads.
 *   node --import tsx bench/sync-gate.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getNetworkParams, scriptToAddress } from '../src/chains/addressing.js';
import { noPrices, silentLogger, type NetworkReader } from '../src/core/index.js';
import { buildHttpApp } from '../src/main/wiring/http-wiring.js';
import { GatedNetworkReader } from '../src/services/shared/gated-reader.js';
import { SyncGate } from '../src/services/shared/sync-gate.js';
import { storeSyncStatusSource, SyncStatusCache } from '../src/services/shared/sync-status-cache.js';
import { ChainBuilder, p2pkh, spend } from '../src/store/conformance/block-builder.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const params = getNetworkParams('LTCTEST', 'regtest');
const CALLS = 50_000;

async function timePerCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / calls;
}

/** Straight and gated alternate round by round (a loaded machine then slows both alike); best round of each. */
async function compare(label: string, straight: () => Promise<unknown>, gated: () => Promise<unknown>): Promise<void> {
  let best = [Infinity, Infinity];
  for (let round = 0; round < 7; round++) {
    best = [Math.min(best[0]!, await timePerCall(straight, CALLS)), Math.min(best[1]!, await timePerCall(gated, CALLS))];
  }
  const [a, b] = best as [number, number];
  console.log(`  ${label.padEnd(36)} straight ${(a / 1000).toFixed(2)} µs, gated ${(b / 1000).toFixed(2)} µs: ${((b - a) / 1000).toFixed(2)} µs per read (${(b / a).toFixed(2)}x)`);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-gate-bench-'));
  const store = new SqliteStore({ path: join(dir, 'gate.db') });
  try {
    await store.migrate();
    const network = store.network('LTCTEST');
    const hot = p2pkh(7);
    const chain = new ChainBuilder();
    let previous = chain.add(p2pkh(1), 50_000n);
    const blocks = [previous];
    for (let h = 1; h < 2000; h++) {
      const coinbase = previous.block.txs[0]!;
      const txs = h % 10 === 0 ? [spend([{ txid: coinbase.txid, vout: 0 }], [{ script: hot, value: 1000n }])] : [];
      previous = chain.add(p2pkh(1 + (h % 3)), 50_000n, txs);
      blocks.push(previous);
    }
    await network.connectBlocks(blocks);
    const gated: NetworkReader = new GatedNetworkReader('LTCTEST', network, new SyncGate(new SyncStatusCache(storeSyncStatusSource(new Map([['LTCTEST', { reader: network }]]))), () => Math.floor(Date.now() / 1000)));
    console.log('sync gate: reads straight vs through the gate (ready network, status cached)');
    // A reader that answers at once: what remains is the gate's own cost, free of the database's variance.
    const instant = { ...Object.fromEntries(Object.getOwnPropertyNames(Object.getPrototypeOf(network)).map((m) => [m, () => Promise.resolve(null)])) } as unknown as NetworkReader;
    const instantGated = new GatedNetworkReader('LTCTEST', instant, new SyncGate(new SyncStatusCache({ syncStatus: async () => null }), () => 0));
    await compare('instant reader (the gate alone)', () => instant.getTip(), () => instantGated.getTip());
    await compare('SQLite getTip', () => network.getTip(), () => gated.getTip());
    await compare('SQLite getAddressTotals (200 txs)', () => network.getAddressTotals(hot), () => gated.getAddressTotals(hot));
    const app = await buildHttpApp({
      networks: new Map([['LTCTEST', { params, reader: network }]]), prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) },
      publicUrl: 'http://bench', rateLimitPerSecond: 0, redisUrl: null, logger: silentLogger, shortLinks: store.shortAddresses(),
    });
    const address = scriptToAddress(params, hot)!;
    let request = Infinity;
    for (let round = 0; round < 5; round++) request = Math.min(request, await timePerCall(() => app.inject({ url: `/api/v2/get_address_balance/LTCTEST/${address}` }), 5_000));
    console.log(`  whole get_address_balance request (inject, gated): ${(request / 1000).toFixed(1)} µs`);
    await app.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
