import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
});
