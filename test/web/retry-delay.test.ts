import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryDelay } from '../../src/web/client/retry-delay.js';

test('a refused live refresh waits Retry-After or longer, doubling, capped, with jitter of up to as much again', () => {
  assert.equal(retryDelay(1, '1', () => 0), 1000);
  assert.equal(retryDelay(1, '1', () => 0.999), 1999);
  assert.equal(retryDelay(1, '3', () => 0), 3000);
  assert.equal(retryDelay(1, null, () => 0), 1000);
  assert.equal(retryDelay(4, '1', () => 0), 8000);
  assert.equal(retryDelay(20, '1', () => 0), 30_000);
  assert.equal(retryDelay(2, 'soon', () => 0.5), 3000);
});
