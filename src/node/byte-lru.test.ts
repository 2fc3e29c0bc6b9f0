import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteLru } from './byte-lru.js';

test('evicts the least recently used entries once the bytes exceed the budget', () => {
  const lru = new ByteLru<string>(100);
  lru.set('a', 'A', 40);
  lru.set('b', 'B', 40);
  assert.equal(lru.get('a'), 'A', 'reading a makes b the oldest');
  lru.set('c', 'C', 40);
  assert.equal(lru.get('b'), undefined);
  assert.equal(lru.get('a'), 'A');
  assert.equal(lru.get('c'), 'C');
  assert.equal(lru.bytes, 80);
});

test('a value larger than the budget is not kept and replacing a key counts its bytes once', () => {
  const lru = new ByteLru<string>(100);
  lru.set('a', 'A', 30);
  lru.set('big', 'X', 101);
  assert.equal(lru.get('big'), undefined);
  assert.equal(lru.get('a'), 'A', 'nothing was evicted for it');
  lru.set('a', 'A2', 50);
  assert.equal(lru.bytes, 50);
  assert.equal(lru.size, 1);
  lru.delete('a');
  assert.equal(lru.bytes, 0);
});
