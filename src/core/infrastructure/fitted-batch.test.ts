import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { busyMs, FittedBatch } from './fitted-batch.js';

describe('FittedBatch', () => {
  it('starts at the most, moves halfway to the size that fits the target, and stays within its bounds', () => {
    const batch = new FittedBatch(250, 50, 20);
    assert.equal(batch.next, 250);
    batch.took(250, 100); // 0.4 ms an item: 50 fit
    assert.equal(batch.next, 150, 'halfway from 250 to 50');
    batch.took(150, 600); // 4 ms an item: 5 fit
    assert.equal(batch.next, 78, 'halfway from 150 to 5');
    batch.took(78, 10_000);
    assert.equal(batch.next, 50, 'never below the least');
    for (let i = 0; i < 10; i++) batch.took(50, 0);
    assert.equal(batch.next, 250, 'free batches grow back to the most, never above');
    batch.took(0, 1_000);
    assert.equal(batch.next, 250, 'an empty batch says nothing');
  });

  it('busyMs counts a synchronous hold whole (a SQLite write), however early it runs', () => {
    // Its other half, an idle wait not counted, holds in a plain process on Node 20 and 24 (a 60-ms timer: 60 ms idle)
    // but not inside Node 24's test runner, whose file process is not idle while a test awaits: not asserted here.
    const start = busyMs();
    const until = Date.now() + 30;
    while (Date.now() < until);
    const held = busyMs() - start;
    assert.ok(held >= 25, `a 30-ms synchronous hold counted ${held.toFixed(1)} ms`);
  });
});
