import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { KeyedLock } from './keyed-lock.js';

describe('keyed lock', () => {
  it('runs tasks of one key one at a time (failures included), other keys alongside, and forgets idle keys', async () => {
    const lock = new KeyedLock<number>();
    const log: string[] = [];
    const task = (key: number, name: string, fail = false) => lock.run(key, async () => {
      log.push(`start ${name}`);
      await delay(10);
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    });
    const results = await Promise.allSettled([task(1, 'a'), task(1, 'b', true), task(1, 'c'), task(2, 'x')]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const one = log.filter((l) => !l.endsWith('x'));
    assert.deepEqual(one, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.ok(log.indexOf('start x') < log.indexOf('end a'), 'another key does not wait');
    await delay(0);
    assert.equal(lock.size, 0, 'no key is kept once its tasks are done');
  });
});
