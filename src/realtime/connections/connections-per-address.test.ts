import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConnectionsPerAddress } from './connections-per-address.js';

test('at most `limit` connections per address; a closed one is counted out; the map holds only addresses with connections', () => {
  const perAddress = new ConnectionsPerAddress(2);
  assert.deepEqual([perAddress.tryAdd('a'), perAddress.tryAdd('a'), perAddress.tryAdd('a'), perAddress.tryAdd('b')], [true, true, false, true]);
  assert.equal(perAddress.addresses, 2);
  perAddress.remove('a');
  assert.equal(perAddress.tryAdd('a'), true, 'a slot came back');
  for (const address of ['a', 'a', 'b']) perAddress.remove(address);
  assert.equal(perAddress.addresses, 0, 'no entry outlives its connections');
  for (let i = 0; i < 10_000; i++) perAddress.tryAdd(`10.0.${i >> 8}.${i & 255}`);
  for (let i = 0; i < 10_000; i++) perAddress.remove(`10.0.${i >> 8}.${i & 255}`);
  assert.equal(perAddress.addresses, 0);
});

test('0 turns the limit off and counts nothing', () => {
  const off = new ConnectionsPerAddress(0);
  for (let i = 0; i < 1_000; i++) assert.equal(off.tryAdd('a'), true);
  assert.equal(off.addresses, 0);
});
