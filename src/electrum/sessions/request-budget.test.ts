import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestBudget } from './request-budget.js';

describe('requests per second of a connection', () => {
  it('lets ten seconds of requests through at once, then holds each back to the rate', () => {
    let now = 0;
    const budget = new RequestBudget(100, () => now);
    assert.equal(budget.take(1000), 0);
    assert.equal(budget.take(1), 10, 'one request past the bucket waits 10 ms at 100/s');
    assert.equal(budget.take(99), 1000);
    now = 1000;
    assert.equal(budget.take(1), 10, 'a second refilled the debt, not more');
    now = 60_000;
    assert.equal(budget.take(1000), 0, 'refilled to the bucket, not beyond');
    assert.equal(budget.take(1), 10);
    assert.equal(new RequestBudget(0, () => 0).take(1e9), 0, '0 = no limit');
  });
});
