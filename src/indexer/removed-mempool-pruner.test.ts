import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkStore } from '../core/index.js';
import { recordingLogger as recorder } from '../../test/helpers/recording-logger.js';
import { RemovedMempoolPruner } from './removed-mempool-pruner.js';

function fakeStore(answer = 0): { store: Pick<NetworkStore, 'id' | 'pruneRemovedMempool'>; cutoffs: number[] } {
  const cutoffs: number[] = [];
  return { store: { id: 'BTC', pruneRemovedMempool: async (before) => (cutoffs.push(before), answer) }, cutoffs };
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
