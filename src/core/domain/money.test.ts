import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { formatCoins, parseCoins } from './money.js';

test('formatCoins prints exactly 8 decimals, with sign, beyond 2^63', () => {
  assert.equal(formatCoins(0n), '0.00000000');
  assert.equal(formatCoins(1n), '0.00000001');
  assert.equal(formatCoins(-1n), '-0.00000001');
  assert.equal(formatCoins(2_100_000_000_000_000n), '21000000.00000000');
  assert.equal(formatCoins(2n ** 64n + 5n), '184467440737.09551621');
});

test('parseCoins is exact and rejects junk', () => {
  assert.equal(parseCoins('0.1'), 10_000_000n);
  assert.equal(parseCoins('-12.00000001'), -1_200_000_001n);
  assert.equal(parseCoins('184467440737.09551621'), 2n ** 64n + 5n);
  for (const bad of ['', '1e8', '0.000000001', '1.', 'abc', '--1']) assert.throws(() => parseCoins(bad), RangeError);
  for (const v of [0n, 1n, 123456789n, 10n ** 20n + 7n, -42n]) assert.equal(parseCoins(formatCoins(v)), v);
});
