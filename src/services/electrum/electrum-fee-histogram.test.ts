import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactFeeHistogram } from './electrum-fee-histogram.js';

describe('Electrum fee histogram', () => {
  it('bins by whole rate, highest first, in bins growing by 10 %, a lump closing the bin before it', () => {
    const tx = (fee: bigint, vsize: number) => ({ fee, vsize });
    // 50 sat/vB: 20,000 vB; 40: 15,000 (bin of 35,000 > 30,000 closes at 40); 10: 70,000 (> 2 × 33,000 closes the
    // running bin of 1,000 at 20 first); 20: 1,000.
    const entries = [tx(500_000n, 10_000), tx(500_000n, 10_000), tx(600_000n, 15_000), tx(20_000n, 1_000), tx(700_000n, 70_000), tx(-5n, 100)];
    assert.deepEqual(compactFeeHistogram(entries), [[40, 35_000], [20, 1_000], [10, 70_000]]);
    assert.deepEqual(compactFeeHistogram([]), []);
    assert.deepEqual(compactFeeHistogram([tx(1_999n, 1_000)]), [], 'a bin not yet full is not listed (as ElectrumX)');
  });
});
