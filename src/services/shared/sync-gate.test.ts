import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IndexSyncingError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import { GatedNetworkReader } from './gated-reader.js';
import { retryAfterSeconds, SyncGate } from './sync-gate.js';
import { storeSyncStatusSource, SyncStatusCache } from './sync-status-cache.js';

const NOW = 1_900_000_000;
const loading = (over: Partial<SyncStatus> = {}): SyncStatus => ({ phase: 'loading', height: 1200, targetHeight: 5000, etaSeconds: 600, updatedAt: NOW, ...over });

/** A source whose answers the test sets, counting reads. */
function source(initial: SyncStatus | null) {
  const s = {
    status: initial,
    reads: 0,
    fail: false,
    async syncStatus(_network: NetworkId): Promise<SyncStatus | null> {
      s.reads++;
      await Promise.resolve();
      if (s.fail) throw new Error('store down');
      return s.status;
    },
  };
  return s;
}

function setup(initial: SyncStatus | null, now = NOW) {
  const src = source(initial);
  const clock = { ms: 0 };
  const cache = new SyncStatusCache(src, { clockMs: () => clock.ms });
  return { src, clock, cache, gate: new SyncGate(cache, () => now) };
}

async function syncingError(gate: SyncGate, network: NetworkId = 'LTC'): Promise<IndexSyncingError> {
  try {
    await gate.check(network);
  } catch (error) {
    assert.ok(error instanceof IndexSyncingError);
    return error;
  }
  throw new Error('expected IndexSyncingError');
}

describe('SyncGate', () => {
  it('lets every query through for a network without a stored status or one that is ready', async () => {
    for (const status of [null, loading({ phase: 'ready', etaSeconds: 0 })]) {
      const { gate } = setup(status);
      await gate.check('LTC');
      assert.equal(gate.check('LTC'), undefined, 'synchronous once cached');
      assert.equal(await gate.syncing('LTC'), null);
    }
  });

  it('refuses queries during every phase before ready, with the exact message and a bounded Retry-After', async () => {
    for (const phase of ['loading', 'building-indexes', 'catching-up'] as const) {
      const error = await syncingError(setup(loading({ phase })).gate);
      assert.equal(error.message, 'index is syncing: height 1200 of 5000, about 10 min left');
      assert.equal(error.code, 'INDEX_SYNCING');
      assert.deepEqual(error.details, { network: 'LTC', phase, height: 1200, targetHeight: 5000, etaSeconds: 600, retryAfterSeconds: 60 });
    }
  });

  it('counts the ETA down from when the status was written, and words unknowns', async () => {
    const later = await syncingError(setup(loading({ etaSeconds: 200 }), NOW + 90).gate);
    assert.equal(later.message, 'index is syncing: height 1200 of 5000, about 2 min left');
    assert.equal(later.details.retryAfterSeconds, 60);
    const overdue = await syncingError(setup(loading({ etaSeconds: 20 }), NOW + 90).gate);
    assert.equal(overdue.message, 'index is syncing: height 1200 of 5000, about 0 min left');
    assert.equal(overdue.details.retryAfterSeconds, 5);
    const unknown = await syncingError(setup(loading({ height: null, targetHeight: null, etaSeconds: null })).gate);
    assert.equal(unknown.message, 'index is syncing: height 0 of unknown, time left unknown');
    assert.equal(unknown.details.retryAfterSeconds, 30);
    const { gate } = setup(loading({ etaSeconds: 200 }), NOW + 90);
    assert.deepEqual(await gate.syncing('LTC'), loading({ etaSeconds: 110 }), 'get_info reports the same countdown');
  });

  it('Retry-After is the ETA in seconds within [5, 60], 30 without an estimate', () => {
    assert.deepEqual([0, 1, 4.2, 5, 17.5, 60, 61, 86_400].map(retryAfterSeconds), [5, 5, 5, 5, 18, 60, 60, 60]);
    assert.equal(retryAfterSeconds(null), 30);
  });
});

describe('SyncStatusCache', () => {
  it('reads the store at most once per TTL (250 ms syncing, 1 s ready), one read for concurrent callers', async () => {
    const { src, clock, cache } = setup(loading());
    const concurrent = await Promise.all([cache.syncStatus('LTC'), cache.syncStatus('LTC'), cache.syncStatus('LTC')]);
    assert.deepEqual(concurrent, [loading(), loading(), loading()]);
    assert.equal(src.reads, 1);
    clock.ms = 249;
    await cache.syncStatus('LTC');
    assert.equal(src.reads, 1);
    src.status = loading({ phase: 'ready' });
    clock.ms = 250;
    assert.equal((await cache.syncStatus('LTC'))?.phase, 'ready');
    assert.equal(src.reads, 2);
    clock.ms = 1249;
    await cache.syncStatus('LTC');
    assert.equal(src.reads, 2, 'ready is kept for a second');
    clock.ms = 1250;
    await cache.syncStatus('LTC');
    assert.equal(src.reads, 3);
    await cache.syncStatus('BTC');
    assert.equal(src.reads, 4, 'per network');
  });

  it('does not cache a failed read', async () => {
    const { src, cache } = setup(null);
    src.fail = true;
    await assert.rejects(cache.syncStatus('LTC'), /store down/);
    src.fail = false;
    assert.equal(await cache.syncStatus('LTC'), null);
    assert.equal(src.reads, 2);
  });
});

describe('storeSyncStatusSource', () => {
  const reader = (status: SyncStatus | null, tip: { height: number; hash: string } | null) =>
    new Map([['LTC' as NetworkId, { reader: { getSyncStatus: async () => status, getTip: async () => tip } }]]);

  it('an index with no status and no block is loading (a fresh start, before the indexer wrote anything), not an empty chain', async () => {
    const empty = storeSyncStatusSource(reader(null, null), () => NOW);
    assert.deepEqual(await empty.syncStatus('LTC'), { phase: 'loading', height: null, targetHeight: null, etaSeconds: null, updatedAt: NOW });
    const error = await syncingError(new SyncGate(new SyncStatusCache(empty), () => NOW));
    assert.equal(error.details.retryAfterSeconds, 30);
    assert.equal(await storeSyncStatusSource(reader(null, { height: 0, hash: '00' }), () => NOW).syncStatus('LTC'), null, 'a tip without a status: ready');
    assert.deepEqual(await storeSyncStatusSource(reader(loading(), null), () => NOW).syncStatus('LTC'), loading(), 'a stored status wins');
    assert.equal(await empty.syncStatus('BTC'), null, 'networks not listed');
  });
});

describe('GatedNetworkReader', () => {
  const chainMethods = [
    'getTip', 'getMainChainHash', 'getAddressTotals', 'getAddressHistory', 'getUnspent', 'getTransaction', 'getOutputs',
    'getBlockByHash', 'getBlockByHeight', 'getMempoolInfo', 'getMempoolEntries', 'getMempoolEntriesOf', 'getMempoolTxids',
  ] as const;
  const inner = Object.fromEntries([...chainMethods, 'getSyncStatus'].map((m) => [m, async () => m])) as unknown as NetworkReader;
  const call = (reader: NetworkReader, method: (typeof chainMethods)[number]) =>
    (reader[method] as (...args: unknown[]) => Promise<unknown>).call(reader, new Uint8Array(1), { limit: 1, direction: 'asc', includeMempool: true });

  it('every chain read waits for the gate; the status itself passes', async () => {
    const syncing = new GatedNetworkReader('LTC', inner, setup(loading()).gate);
    for (const method of chainMethods) await assert.rejects(call(syncing, method), IndexSyncingError, method);
    assert.equal(await syncing.getSyncStatus(), 'getSyncStatus');
    const ready = new GatedNetworkReader('LTC', inner, setup(null).gate);
    for (const method of chainMethods) assert.equal(await call(ready, method), method);
  });

  it('so does every script-set read (wallets)', async () => {
    const setMethods = ['getScriptTotals', 'getScriptSetTxCount', 'getScriptSetSummary', 'getScriptSetFlows', 'getScriptSetHistory', 'getScriptSetUnspent'] as const;
    const sets = Object.fromEntries(setMethods.map((m) => [m, async () => m]));
    const withSets = { ...inner, scriptSets: sets } as unknown as NetworkReader;
    const callSet = (reader: NetworkReader, method: (typeof setMethods)[number]) =>
      (reader.scriptSets[method] as (...args: unknown[]) => Promise<unknown>)([new Uint8Array(1)], { limit: 1, offset: 0 });
    const syncing = new GatedNetworkReader('LTC', withSets, setup(loading()).gate);
    for (const method of setMethods) await assert.rejects(callSet(syncing, method), IndexSyncingError, method);
    const ready = new GatedNetworkReader('LTC', withSets, setup(null).gate);
    for (const method of setMethods) assert.equal(await callSet(ready, method), method);
  });
});
