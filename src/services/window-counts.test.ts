import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyFailuresLimitedError } from '../core/errors.js';
import { KeyFailureLimit } from './key-failure-limit.js';
import { MemoryAttemptCounter } from './memory-attempt-counter.js';
import { MemoryRateCounter } from './memory-rate-counter.js';
import { WindowCounts } from './window-counts.js';

describe('bounded window counts', () => {
  it('counts per key in fixed windows and holds at most maxKeys keys: ended windows go first, then the oldest', () => {
    let now = 0;
    const counts = new WindowCounts(100, () => now);
    assert.deepEqual(counts.add('a', 1000), { count: 1, resetMs: 1000 });
    now = 400;
    assert.deepEqual(counts.add('a', 1000), { count: 2, resetMs: 600 });
    assert.deepEqual(counts.peek('a'), { count: 2, resetMs: 600 });
    now = 1000;
    assert.deepEqual(counts.peek('a'), { count: 0, resetMs: 0 }, 'the window ended');
    assert.deepEqual(counts.add('a', 1000), { count: 1, resetMs: 1000 });
    // A flood of distinct keys: the map never exceeds its bound.
    for (let i = 0; i < 10_000; i++) {
      counts.add(`flood-${i}`, 60_000);
      assert.ok(counts.size <= 100, `size ${counts.size} at ${i}`);
    }
    assert.equal(counts.peek('flood-9999').count, 1, 'the newest keys are kept');
    assert.equal(counts.peek('flood-0').count, 0, 'the oldest went');
    // Ended windows are dropped before live ones.
    const mixed = new WindowCounts(10, () => now);
    for (let i = 0; i < 5; i++) mixed.add(`short-${i}`, 10);
    for (let i = 0; i < 5; i++) mixed.add(`long-${i}`, 60_000);
    now += 20;
    mixed.add('new', 60_000);
    assert.equal(mixed.size, 6);
    assert.equal(mixed.peek('long-0').count, 1);
    mixed.sweep();
    assert.equal(mixed.size, 6);
  });

  it('the in-process attempt and rate counters hold their bound under a flood of distinct keys', async () => {
    const attempts = new MemoryAttemptCounter(Date.now, 1000);
    const rates = new MemoryRateCounter(Date.now, 1000);
    for (let i = 0; i < 5000; i++) {
      await attempts.add(`signin-ip:${i}`, 900);
      await rates.hit(`203.0.113.${i}`, 1000);
    }
    assert.ok(attempts.size <= 1000 && attempts.size > 800, String(attempts.size));
    assert.ok(rates.size <= 1000 && rates.size > 800, String(rates.size));
    await rates.close();
  });

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
