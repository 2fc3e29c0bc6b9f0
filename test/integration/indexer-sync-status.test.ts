/**
 * The indexer's initial-sync status on both engines, against a real litecoind: an empty index is written as `loading`
 * (before its first block, then after every batch) and `ready` at the node's tip, with none of its events published
 * until then; a sync stopped half-way resumes as an initial sync; an index that has a tip and no status stays
 * queryable and writes none; `bulk` re-loads one as an initial sync.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/addressing.js';
import { MemoryEventBus, silentLogger, type ChainSource, type DomainEvent, type NetworkStore, type SyncStatus } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
const engines = new StoreEngines();

before(async () => {
  node = await startLitecoind({ funded: true });
  await node.mine(20);
});

after(async () => {
  await node?.stop();
  await engines.close();
});

/** The node; after `failAfter` batches it fails (like a crash mid-sync: nothing after the last commit happens). */
function failingSource(failAfter = Infinity): ChainSource {
  const rpc = new RpcChainSource(node.node);
  let batches = 0;
  return Object.assign(Object.create(rpc) as ChainSource, {
    getBlockHashes(from: number, count: number): Promise<string[]> {
      return ++batches > failAfter ? Promise.reject(new Error('node went away')) : rpc.getBlockHashes(from, count);
    },
  });
}

/** The store, recording every status written. */
function recording(store: NetworkStore, writes: SyncStatus[]): NetworkStore {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'setSyncStatus') {
        return async (status: SyncStatus | null) => {
          if (status) writes.push(status);
          await target.setSyncStatus(status);
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function indexer(store: NetworkStore, writes: SyncStatus[], events: DomainEvent[], options: { failAfter?: number; bulk?: boolean } = {}): NetworkIndexer {
  const bus = new MemoryEventBus();
  bus.subscribe((e) => events.push(e));
  // One block per batch: a status per block.
  return new NetworkIndexer({
    params, source: failingSource(options.failAfter), store: recording(store, writes), bus, logger: silentLogger, batchTxTarget: 1, bulk: options.bulk ?? false,
  });
}

const blockEvents = (events: readonly DomainEvent[]): number[] => events.flatMap((e) => (e.kind === 'block_connected' ? [e.height] : []));

for (const engine of testEngines()) {
  describe(`initial-sync status on ${engine}`, () => {
    let store: NetworkStore;

    before(async () => {
      store = (await engines.create(engine)).store.network('LTCTEST');
    });

    it('an empty index: loading from before its first block, ready at the tip, no event of the network meanwhile', async () => {
      const tip = await node.rpc.call<number>('getblockcount');
      const writes: SyncStatus[] = [];
      const events: DomainEvent[] = [];
      // Stopped after 40 batches: like a kill, the next process must resume it as an initial sync.
      await assert.rejects(indexer(store, writes, events, { failAfter: 40 }).syncOnce(), /node went away/);
      assert.deepEqual(writes[0], { phase: 'loading', height: null, targetHeight: null, etaSeconds: null, updatedAt: writes[0]!.updatedAt });
      assert.ok(writes.length > 30, String(writes.length));
      for (const [i, status] of writes.slice(1).entries()) {
        assert.deepEqual([status.phase, status.height, status.targetHeight], ['loading', i, tip], 'written after every batch');
        assert.ok(status.etaSeconds === null || status.etaSeconds >= 0);
      }
      assert.ok(writes.slice(-10).every((s) => s.etaSeconds !== null), 'an ETA once blocks were written');
      const stopped = await store.getSyncStatus();
      assert.equal(stopped?.phase, 'loading');
      assert.equal((await store.getTip())?.height, stopped?.height);

      const resumedWrites: SyncStatus[] = [];
      const resumed = indexer(store, resumedWrites, events);
      await resumed.syncOnce();
      assert.equal(resumedWrites[0]?.height, stopped?.height, 'the restart resumed the initial sync (not a queryable catch-up)');
      // Loading to the tip, the index build step by step, catching up, ready.
      const phases = resumedWrites.map((s) => s.phase).filter((p, i, all) => p !== all[i - 1]);
      assert.deepEqual(phases, ['loading', 'building-indexes', 'catching-up', 'ready']);
      const building = resumedWrites.filter((s) => s.phase === 'building-indexes');
      assert.ok(building.length >= 5 && building.every((s) => s.height === tip && s.etaSeconds !== null), 'a status per build step, with an ETA');
      const ready = await store.getSyncStatus();
      assert.deepEqual(ready, { phase: 'ready', height: tip, targetHeight: tip, etaSeconds: 0, updatedAt: ready!.updatedAt });
      assert.deepEqual(resumedWrites.at(-1), ready);
      assert.deepEqual(events, [], 'nothing published during the initial sync');

      const writesWhenReady = resumedWrites.length;
      await node.mine(1);
      await resumed.syncOnce();
      assert.deepEqual(blockEvents(events), [tip + 1], 'events flow once ready');
      assert.equal(resumedWrites.length, writesWhenReady, 'no status writes once ready');
    });

    it('an index with a tip and no stored status catches up queryably and writes none', async () => {
      await store.setSyncStatus(null);
      const from = (await store.getTip())!.height;
      await node.mine(3);
      const writes: SyncStatus[] = [];
      const events: DomainEvent[] = [];
      await indexer(store, writes, events).syncOnce();
      assert.deepEqual(writes, []);
      assert.equal(await store.getSyncStatus(), null);
      assert.deepEqual(blockEvents(events), [from + 1, from + 2, from + 3], 'its events are published as it goes');
    });

    it('bulk: an index with a tip is rebuilt from scratch as an initial sync', async () => {
      await node.mine(2);
      const from = (await store.getTip())!.height;
      const tip = from + 2;
      const writes: SyncStatus[] = [];
      const events: DomainEvent[] = [];
      await indexer(store, writes, events, { bulk: true }).syncOnce();
      assert.deepEqual(writes[0], { phase: 'loading', height: from, targetHeight: null, etaSeconds: null, updatedAt: writes[0]!.updatedAt });
      const loaded = writes.slice(1).filter((s) => s.phase === 'loading').map((s) => s.height);
      assert.deepEqual(loaded, Array.from({ length: tip + 1 }, (_, h) => h), 'every block loaded again from genesis');
      assert.deepEqual(writes.map((s) => s.phase).filter((p, i, all) => p !== all[i - 1]), ['loading', 'building-indexes', 'catching-up', 'ready']);
      assert.deepEqual(writes.at(-1)?.height, tip);
      assert.deepEqual(events, []);
    });
  });
}
