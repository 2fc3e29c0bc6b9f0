import assert from 'node:assert/strict';
import { test } from 'node:test';
import { feeHistogram } from './fee-histogram.js';

const entry = (fee: bigint, vsize: number) => ({ txid: `${fee}-${vsize}`, fee, vsize, weight: vsize * 4, size: null, depends: [] });

test('txs and vbytes per fee-rate band, each tx at its own rate, empty bands left out', () => {
  const bands = feeHistogram([entry(100n, 100), entry(150n, 100), entry(199n, 100), entry(200n, 100), entry(2_500n, 250), entry(5_000_000n, 1_000)]);
  assert.deepEqual(bands, [
    { from: 0, to: 2, txs: 3, vsize: 300 },
    { from: 2, to: 3, txs: 1, vsize: 100 },
    { from: 10, to: 12, txs: 1, vsize: 250 },
    { from: 1000, to: null, txs: 1, vsize: 1_000 },
  ]);
  assert.deepEqual(feeHistogram([]), []);
});
