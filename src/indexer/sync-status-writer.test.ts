import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryEventBus, type DomainEvent, type SyncStatus } from '../core/index.js';
import { quietWhileSyncing, SyncStatusWriter } from './sync-status-writer.js';

const T0 = 1_900_000_000_000;

function fakeStore(stored: SyncStatus | null = null) {
  const store = {
    status: stored,
    writes: [] as SyncStatus[],
    getSyncStatus: async () => store.status,
    setSyncStatus: async (status: SyncStatus | null) => {
      store.status = status;
      if (status) store.writes.push(status);
    },
  };
  return store;
}

function writer(stored: SyncStatus | null = null, bulk = false) {
  const store = fakeStore(stored);
  const clock = { ms: T0 };
  return { store, clock, writer: new SyncStatusWriter(store, { bulk, clockMs: () => clock.ms }) };
}

const tip = (height: number) => ({ height, hash: 'ab'.repeat(32) });

describe('SyncStatusWriter', () => {
  it('an empty index is an initial sync: loading before the first block, an ETA from the rate so far, ready at the tip', async () => {
    const { store, clock, writer: w } = writer();
    assert.equal(w.syncing, true, 'quiet until decided');
    await w.begin(null);
    assert.deepEqual(store.writes, [{ phase: 'loading', height: null, targetHeight: null, etaSeconds: null, updatedAt: T0 / 1000 }]);
    clock.ms += 10_000;
    await w.progress(99, 1099);
    // 100 blocks (0..99) in 10 s: 10 blocks/s, 1,000 left.
    assert.deepEqual(store.status, { phase: 'loading', height: 99, targetHeight: 1099, etaSeconds: 100, updatedAt: T0 / 1000 + 10 });
    clock.ms += 40_000;
    await w.progress(599, 1199);
    assert.equal(store.status?.etaSeconds, 50, '600 blocks in 50 s (12/s), 600 left');
    await w.begin(tip(599));
    assert.equal(store.writes.length, 3, 'only the first pass decides');
    assert.equal(w.syncing, true);
    await w.ready(1199, 1199);
    assert.deepEqual(store.status, { phase: 'ready', height: 1199, targetHeight: 1199, etaSeconds: 0, updatedAt: T0 / 1000 + 50 });
    assert.equal(w.syncing, false);
    await w.progress(1200, 1200);
    await w.ready(1200, 1200);
    assert.equal(store.writes.length, 4, 'nothing after ready');
  });

  it('an index with a tip and no stored status stays ready and writes nothing', async () => {
    for (const stored of [null, { phase: 'ready', height: 5, targetHeight: 5, etaSeconds: 0, updatedAt: 1 } as const]) {
      const { store, writer: w } = writer(stored);
      await w.begin(tip(5));
      await w.progress(6, 9);
      await w.ready(9, 9);
      assert.equal(w.syncing, false);
      assert.deepEqual(store.writes, []);
    }
  });

  it('a restart resumes a stored initial sync (its phase and target) even though the index has a tip', async () => {
    const { store, writer: w } = writer({ phase: 'building-indexes', height: 70, targetHeight: 90, etaSeconds: 12, updatedAt: 5 });
    await w.begin(tip(70));
    assert.equal(w.syncing, true);
    assert.deepEqual(store.status, { phase: 'building-indexes', height: 70, targetHeight: 90, etaSeconds: null, updatedAt: T0 / 1000 });
  });

  it('--bulk loads an index that has a tip as an initial sync', async () => {
    const { store, writer: w } = writer(null, true);
    await w.begin(tip(40));
    assert.equal(w.syncing, true);
    assert.equal(store.status?.phase, 'loading');
    assert.equal(store.status?.height, 40);
  });

  it('a new phase measures its own rate; an ETA given by the caller wins', async () => {
    const { store, clock, writer: w } = writer();
    await w.begin(null);
    clock.ms += 5_000;
    await w.progress(499, 999);
    await w.progress(999, 999, 'building-indexes', 300);
    assert.deepEqual([store.status?.phase, store.status?.etaSeconds], ['building-indexes', 300]);
    clock.ms += 1_000;
    await w.progress(1009, 1029, 'catching-up');
    assert.equal(store.status?.etaSeconds, null, 'no block yet in this phase');
    clock.ms += 2_000;
    await w.progress(1019, 1029, 'catching-up');
    assert.equal(store.status?.etaSeconds, 2, '10 blocks in 2 s, 10 left');
  });
});

describe('quietWhileSyncing', () => {
  it('publishes nothing until ready, everything after', async () => {
    const { writer: w } = writer();
    const bus = new MemoryEventBus();
    const seen: DomainEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const quiet = quietWhileSyncing(bus, w);
    const event = (txid: string): DomainEvent => ({ kind: 'tx_removed', network: 'LTC', txid, reason: 'evicted' });
    quiet.publish(event('before-begin'));
    await w.begin(null);
    quiet.publish(event('loading'));
    await w.ready(0, 0);
    quiet.publish(event('ready'));
    assert.deepEqual(seen.map((e) => (e.kind === 'tx_removed' ? e.txid : '')), ['ready']);
    const received: DomainEvent[] = [];
    quiet.subscribe((e) => received.push(e));
    bus.publish(event('other'));
    assert.equal(received.length, 1, 'subscribing passes through');
  });
});
