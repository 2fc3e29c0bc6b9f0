import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryAttemptCounter } from './memory-attempt-counter.js';
import { MemoryRateCounter } from './memory-rate-counter.js';

describe('in-process counters', () => {
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
});
