import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkStore } from '../../core/index.js';
import { recordingLogger as recorder } from '../../../test/helpers/recording-logger.js';
import { RemovedMempoolPruner } from './removed-mempool-pruner.js';

/** A store holding `due` prunable txs: each call forgets up to its limit of them. */
function fakeStore(due = 0): { store: Pick<NetworkStore, 'id' | 'pruneRemovedMempool'>; cutoffs: number[]; limits: number[] } {
  const cutoffs: number[] = [];
  const limits: number[] = [];
  let left = due;
  const pruneRemovedMempool = async (before: number, limit: number): Promise<number> => {
    cutoffs.push(before);
    limits.push(limit);
    const n = Math.min(left, limit);
    left -= n;
    return n;
  };
  return { store: { id: 'BTC', pruneRemovedMempool }, cutoffs, limits };
}

test('prunes on the first pass, then at most once per interval, cutting off keepSeconds before now', async () => {
  const { store, cutoffs } = fakeStore();
  let now = 1_700_000_000_500;
  const pruner = new RemovedMempoolPruner(store, recorder().logger, 72 * 3600, 600_000, () => now);
  assert.equal(await pruner.maybePrune(), 0);
  assert.deepEqual(cutoffs, [1_700_000_000 - 72 * 3600]);
  now += 599_999;
  assert.equal(await pruner.maybePrune(), null, 'not due yet');
  now += 1;
  assert.equal(await pruner.maybePrune(), 0);
  assert.deepEqual(cutoffs, [1_700_000_000 - 72 * 3600, 1_700_000_600 - 72 * 3600]);
});

test('keepSeconds 0 keeps removed txs forever: the store is never asked', async () => {
  const { store, cutoffs } = fakeStore();
  const pruner = new RemovedMempoolPruner(store, recorder().logger, 0);
  assert.equal(await pruner.maybePrune(), null);
  assert.deepEqual(cutoffs, []);
});

test('logs how many it forgot, and nothing when there was none', async () => {
  const quiet = recorder();
  await new RemovedMempoolPruner(fakeStore(0).store, quiet.logger, 3600).maybePrune();
  assert.deepEqual(quiet.lines, []);
  const loud = recorder();
  assert.equal(await new RemovedMempoolPruner(fakeStore(7).store, loud.logger, 3600).maybePrune(), 7);
  assert.deepEqual(loud.lines, [{ level: 'info', message: 'pruned removed mempool txs', fields: { network: 'BTC', count: 7, keptSeconds: 3600 } }]);
});

test('deletes in chunks until a chunk comes back short, the event loop free between chunks', async () => {
  const { store, limits } = fakeStore(12);
  // Counts event-loop turns; without a yield between chunks every call would see the same count.
  let turns = 0;
  let spinning = true;
  const spin = (): void => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  const seen: number[] = [];
  const observed = { ...store, pruneRemovedMempool: (before: number, limit: number) => (seen.push(turns), store.pruneRemovedMempool(before, limit)) };
  try {
    assert.equal(await new RemovedMempoolPruner(observed, recorder().logger, 3600, 600_000, Date.now, 5).maybePrune(), 12);
  } finally {
    spinning = false;
  }
  assert.deepEqual(limits, [5, 5, 5], '5 + 5 + 2: the short third chunk ends it');
  assert.ok(seen[0]! < seen[1]! && seen[1]! < seen[2]!, `event-loop turns at each chunk: ${seen.join(', ')}`);
  const exact = fakeStore(10);
  assert.equal(await new RemovedMempoolPruner(exact.store, recorder().logger, 3600, 600_000, Date.now, 5).maybePrune(), 10);
  assert.deepEqual(exact.limits, [5, 5, 5], 'a full last chunk needs one more (empty) call to know it was the last');
});
