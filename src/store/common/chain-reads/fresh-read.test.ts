import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FreshRead } from './fresh-read.js';

/** A query whose answers the test releases one by one; `value` is what the store holds when a query starts. */
function controlled(): { read: FreshRead<number>; started: number[]; release(): void; fail(): void; value: { v: number } } {
  const value = { v: 0 };
  const started: number[] = [];
  const pending: { resolve(v: number): void; reject(e: Error): void; at: number }[] = [];
  const read = new FreshRead(() => new Promise<number>((resolve, reject) => {
    started.push(value.v);
    pending.push({ resolve, reject, at: value.v });
  }));
  return {
    read, started, value,
    release: () => { const p = pending.shift()!; p.resolve(p.at); },
    fail: () => pending.shift()!.reject(new Error('down')),
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FreshRead', () => {
  it('never answers a caller with a query started before its call, and shares one query among waiting callers', async () => {
    const c = controlled();
    const first = c.read.get();
    c.value.v = 1; // the store changes after the first query was sent
    const second = c.read.get();
    const third = c.read.get();
    assert.equal(c.started.length, 1, 'callers wait while a query runs');
    c.release();
    assert.equal(await first, 0);
    await tick();
    assert.deepEqual(c.started, [0, 1], 'one query for both waiting callers, started after their calls');
    c.release();
    assert.equal(await second, 1);
    assert.equal(await third, 1);
  });

  it('queries again for a call after the previous answer, and recovers after a failed query', async () => {
    const c = controlled();
    const first = c.read.get();
    c.fail();
    await assert.rejects(first, /down/);
    const again = c.read.get();
    c.release();
    assert.equal(await again, 0);
    assert.equal(c.started.length, 2);
  });

  it('a caller waiting behind a failed query gets the next query', async () => {
    const c = controlled();
    const first = c.read.get();
    const waiting = c.read.get();
    c.fail();
    await assert.rejects(first, /down/);
    await tick();
    c.release();
    assert.equal(await waiting, 0);
  });
});
