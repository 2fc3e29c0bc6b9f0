/** Conformance: each network's sync status is stored whole, read back exactly, per network, and survives a restart. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { NETWORK_IDS } from '../../../core/domain/network.js';
import { dropMempoolStatsSql } from '../../common/schema/mempool-stats.js';
import { SCHEMA_VERSION } from '../../common/schema/schema-version.js';
import { ChainBuilder, p2pkh } from '../block-builder.js';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

const loading: SyncStatus = { phase: 'loading', height: 120_000, targetHeight: 2_650_000, etaSeconds: 86_400 * 3, updatedAt: 1_900_000_000 };

export function syncStatusTests(harness: StoreHarness): void {
  it('no row means none stored (never bulk-loaded)', () => withDb(harness, async (db) => {
    assert.equal(await db.store.network('BTC').getSyncStatus(), null);
  }));

  it('stores, replaces and deletes the status of one network only', () => withDb(harness, async (db) => {
    const btc = db.store.network('BTC');
    const ltc = db.store.network('LTC');
    await btc.setSyncStatus(loading);
    assert.deepEqual(await btc.getSyncStatus(), loading);
    assert.equal(await ltc.getSyncStatus(), null, 'per network');
    const unknown: SyncStatus = { phase: 'building-indexes', height: null, targetHeight: null, etaSeconds: null, updatedAt: 1_900_000_100 };
    await btc.setSyncStatus(unknown);
    assert.deepEqual(await btc.getSyncStatus(), unknown, 'replaced whole, nulls kept');
    for (const phase of ['catching-up', 'ready'] as const) {
      const status: SyncStatus = { phase, height: 0, targetHeight: 0, etaSeconds: 0, updatedAt: 1 };
      await ltc.setSyncStatus(status);
      assert.deepEqual(await ltc.getSyncStatus(), status);
    }
    await btc.setSyncStatus(null);
    assert.equal(await btc.getSyncStatus(), null, 'null deletes');
    assert.equal((await ltc.getSyncStatus())?.phase, 'ready');
    await btc.setSyncStatus(null);
    assert.equal(await btc.getSyncStatus(), null, 'deleting nothing is fine');
  }));

  it('is read by other processes and kept across restarts; chain writes leave it alone', () => withDb(harness, async (db) => {
    const doge = db.store.network('DOGE');
    await doge.setSyncStatus(loading);
    await doge.connectBlocks([new ChainBuilder().add(p2pkh(1), 50n)]);
    const reopened = await db.reopen();
    assert.deepEqual(await reopened.network('DOGE').getSyncStatus(), loading);
  }));

  it('an index upgraded from the version before the table counts as ready (no row)', () => withDb(harness, async (db) => {
    await db.store.network('LTC').connectBlocks([new ChainBuilder().add(p2pkh(1), 50n)]);
    // Version 8, the one before the table: the later migrations (the event log's too) run again on the way up.
    for (const table of ['sync_status', 'event_log', 'event_log_state', 'webhook_watches', 'webhook_deliveries', 'webhooks', 'mempool_samples']) await db.exec(`DROP TABLE ${table}`);
    for (const id of NETWORK_IDS) for (const sql of dropMempoolStatsSql(db.engine, id)) await db.exec(sql);
    await db.setSchemaVersion(8);
    const store = await db.reopen();
    await store.migrate();
    assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
    assert.equal(await store.network('LTC').getSyncStatus(), null);
    assert.equal((await store.network('LTC').getTip())?.height, 0);
  }));

  it('rejects a phase outside the contract', () => withDb(harness, async (db) => {
    await assert.rejects(db.store.network('BTC').setSyncStatus({ ...loading, phase: 'resting' as SyncStatus['phase'] }));
    assert.equal(await db.store.network('BTC').getSyncStatus(), null);
  }));
}
