import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MempoolSourceEntry } from '../../core/sources/mempool-source.js';
import { newestMempoolTxs } from './newest-mempool-txs.js';

const entry = (txid: string, seenAt: number | undefined, fee = 100n): MempoolSourceEntry => ({ txid, fee, vsize: 100, weight: 400, size: null, depends: [], ...(seenAt !== undefined ? { seenAt } : {}) });

test('the newest of one snapshot, newest first, ties by txid, at most the limit', () => {
  const entries = [entry('c', 10), entry('a', 30), entry('b', 30), entry('d', 20), entry('e', 5)];
  assert.deepEqual(newestMempoolTxs(entries, null, 99, 3).map((t) => t.txid), ['a', 'b', 'd']);
  assert.deepEqual(newestMempoolTxs(entries, null, 99).map((t) => t.txid), ['a', 'b', 'd', 'c', 'e']);
  assert.deepEqual(newestMempoolTxs([], null, 99), []);
});

test("the index's fee and first-seen time fill in what the source lacks; unknown times count as the snapshot's", () => {
  const indexed = new Map([['x', { fee: 250n, seenAt: 40 }]]);
  const [first, second] = newestMempoolTxs([entry('x', undefined, 200n), entry('y', undefined)], indexed, 50);
  assert.deepEqual(first, { txid: 'y', fee: 100n, vsize: 100, seenAt: 50 });
  assert.deepEqual(second, { txid: 'x', fee: 250n, vsize: 100, seenAt: 40 });
});
