import assert from 'node:assert/strict';
import { it } from 'node:test';
import { thin } from './mempool-history-service.js';

it('thin keeps every sample up to the cap, else every k-th counted back from the newest (the newest always)', () => {
  const day = Array.from({ length: 1_440 }, (_, i) => i);
  assert.deepEqual(thin(day.slice(0, 288), 288), day.slice(0, 288));
  const thinned = thin(day, 288);
  assert.equal(thinned.length, 288);
  assert.equal(thinned[thinned.length - 1], 1_439);
  assert.ok(thinned.every((v, i) => i === 0 || v - thinned[i - 1]! === 5));
  const odd = thin(Array.from({ length: 1_000 }, (_, i) => i), 288);
  assert.ok(odd.length <= 288 && odd[odd.length - 1] === 999);
});
