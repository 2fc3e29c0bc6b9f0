import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkConfidence } from './network-confidence.js';

const at = (holders: number, sampled: number, ageSeconds: number): number => networkConfidence({ holders, sampled, ageSeconds, propagationSeconds: 10 });

describe('network confidence model', () => {
  it('grows with the share of sampled peers that announced the tx and with its age, capped at 0.99', () => {
    assert.equal(at(4, 4, 0), 0.91);
    assert.equal(at(4, 4, 5), 0.95);
    assert.equal(at(4, 4, 10), 0.99);
    assert.equal(at(4, 4, 1e6), 0.99);
    assert.equal(at(2, 4, 10), 0.5);
    assert.equal(at(8, 9, 60), 0.88);
    assert.equal(at(7, 8, 60), 0.87);
    assert.equal(at(1, 8, 0), 0.11);
    assert.equal(at(0, 8, 60), 0);
    assert.equal(at(3, 0, 5), 0, 'no sample, no network confidence');
  });

  it('is monotone in share and in age', () => {
    for (let n = 1; n <= 8; n++) {
      let previous = -1;
      for (let age = 0; age <= 20; age++) {
        const c = at(n, 8, age);
        assert.ok(c >= previous && c <= 0.99);
        previous = c;
      }
      if (n > 1) assert.ok(at(n, 8, 3) > at(n - 1, 8, 3));
    }
  });
});
