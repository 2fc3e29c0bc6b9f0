import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyFailuresLimitedError } from '../../core/domain/errors.js';
import { KeyFailureLimit } from './key-failure-limit.js';

describe('v3 key-failure limit', () => {
  it('v3 key failures: per client network (IPv6 by /64), refused at the limit with the wait, bounded', () => {
    let now = 0;
    const limit = new KeyFailureLimit({ max: 3, windowSeconds: 60 }, () => now, 500);
    for (let i = 0; i < 3; i++) {
      assert.equal(limit.refusal('2001:db8:1:2::1'), null);
      limit.record(`2001:db8:1:2::${i + 1}`);
    }
    now = 15_000;
    const refused = limit.refusal('2001:db8:1:2:ffff::9');
    assert.ok(refused instanceof KeyFailuresLimitedError);
    assert.equal(refused.retryAfter, 45);
    assert.equal(limit.refusal('2001:db8:1:3::1'), null, 'another /64');
    now = 60_000;
    assert.equal(limit.refusal('2001:db8:1:2::1'), null, 'the window ended');
    for (let i = 0; i < 5000; i++) limit.record(`10.${i >> 8}.${i & 255}.1`);
    assert.ok(limit.size <= 500);
    assert.equal(new KeyFailureLimit({ max: 0, windowSeconds: 60 }).refusal('10.0.0.1'), null, '0 = off');
  });
});
