import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packPrevouts, unpackPrevouts } from './codec.js';

void describe('prevouts encoding', () => {
  it('keeps a prevout whose script key is 0 (keys are hashes) apart from a coinbase input', () => {
    const prevouts = [
      null,
      { txid: 'ab'.repeat(32), vout: 0, value: 0n, scriptId: 0 },
      { txid: '00'.repeat(31) + '01', vout: 7, value: 2n ** 63n + 5n, scriptId: 2 ** 53 - 1 },
    ];
    assert.deepEqual(unpackPrevouts(packPrevouts(prevouts)), prevouts);
  });
});
