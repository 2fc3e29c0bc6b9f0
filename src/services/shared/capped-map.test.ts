import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CappedMap } from './capped-map.js';

describe('capped map', () => {
  it('never holds more than max entries; the oldest goes first; setting a key again makes it the newest', () => {
    const map = new CappedMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    map.set('a', 10);
    map.set('d', 4);
    assert.equal(map.size, 3);
    assert.equal(map.get('b'), undefined, 'b was the oldest');
    assert.deepEqual(['a', 'c', 'd'].map((k) => map.get(k)), [10, 3, 4]);
    for (let i = 0; i < 10_000; i++) map.set(`k${i}`, i);
    assert.equal(map.size, 3);
    map.delete('k9999');
    assert.equal(map.size, 2);
    map.clear();
    assert.equal(map.size, 0);
  });
});
