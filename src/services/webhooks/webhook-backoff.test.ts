import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_RETRY_MS, nextAttemptAt } from './webhook-backoff.js';

describe('webhook backoff', () => {
  it('first retry within 10 s, doubling with jitter, capped at an hour, given up after the window', () => {
    const at = (attempts: number, r: number, now = 0): number | null => nextAttemptAt(attempts, 0, now, 24, () => r);
    assert.equal(at(1, 1), 10_000);
    assert.equal(at(1, 0), 5_000);
    assert.equal(at(2, 1), 20_000);
    assert.equal(at(3, 1), 40_000);
    assert.equal(at(30, 1), MAX_RETRY_MS);
    assert.ok(at(1, 0.5)! < 10_000);
    assert.equal(at(40, 1, 24 * 3_600_000), null, 'after 24 h: failed');
    // Tries for at least 24 h: the sum of the delays before giving up.
    let now = 0;
    let attempts = 1;
    for (let next = nextAttemptAt(attempts, 0, now, 24, () => 1); next !== null; next = nextAttemptAt(++attempts, 0, now, 24, () => 1)) now = next;
    assert.ok(now >= 24 * 3_600_000, `last attempt at ${now} ms`);
  });
});
