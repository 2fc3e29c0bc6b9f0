import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_QUEUED_EVENTS, QueueBound } from './queue-bound.js';

describe('QueueBound', () => {
  it('lets each waiter go once the queue is within its own bound, the tighter ones later', async () => {
    const bound = new QueueBound();
    const released: string[] = [];
    const wait = (name: string, length: number, limit?: number): Promise<void> => bound.within(length, limit).then(() => void released.push(name));
    const waits = [wait('default', MAX_QUEUED_EVENTS + 10), wait('tight', MAX_QUEUED_EVENTS + 10, 2_000), wait('at once', 1_500, 2_000)];
    await nextTurn();
    assert.deepEqual(released, ['at once']);
    bound.shrunkTo(MAX_QUEUED_EVENTS);
    await nextTurn();
    assert.deepEqual(released, ['at once', 'default']);
    bound.shrunkTo(2_001);
    await nextTurn();
    assert.deepEqual(released, ['at once', 'default']);
    bound.shrunkTo(2_000);
    await Promise.all(waits);
    assert.deepEqual(released, ['at once', 'default', 'tight']);
  });

  it("a bound above the queue's own is the queue's own", async () => {
    const bound = new QueueBound();
    let done = false;
    const waiting = bound.within(MAX_QUEUED_EVENTS + 1, MAX_QUEUED_EVENTS * 2).then(() => (done = true));
    await nextTurn();
    assert.equal(done, false);
    bound.shrunkTo(MAX_QUEUED_EVENTS);
    await waiting;
  });
});
