import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { NO_KEY, TxidSet, txidKey, txidKeyOfBytes, txidListOf, txidsOf } from './txid-set.js';

const txid = (): string => randomBytes(32).toString('hex');

describe('TxidSet', () => {
  it('answers has / hasAt / size / iteration as a Set of the same txids does', () => {
    const txids = Array.from({ length: 500 }, txid);
    const set = new TxidSet(txids.slice(0, 300));
    const reference = new Set(txids.slice(0, 300));
    for (const t of txids.slice(250, 400)) {
      set.add(t);
      reference.add(t);
    }
    for (const t of txids.slice(0, 100)) assert.equal(set.delete(t), reference.delete(t));
    assert.equal(set.delete(txid()), false);
    assert.equal(set.size, reference.size);
    assert.deepEqual([...set], [...reference]);
    const list = txidListOf(txids);
    for (let i = 0; i < txids.length; i++) {
      assert.equal(set.has(txids[i]!), reference.has(txids[i]!));
      assert.equal(set.hasAt(list, i), reference.has(txids[i]!));
    }
  });

  it('tells apart txids whose keys are equal (same first hex digits, text that is not hex)', () => {
    const a = `0123456789abc${'0'.repeat(51)}`;
    const b = `0123456789abc${'1'.repeat(51)}`;
    const odd = ['not-hex', 'zz', 'x'.repeat(64)];
    const set = new TxidSet([a, ...odd]);
    assert.equal(txidKey(a), txidKey(b));
    assert.equal(txidKey('not-hex'), NO_KEY);
    assert.equal(set.has(a), true);
    assert.equal(set.has(b), false);
    set.add(b);
    set.add(b);
    assert.equal(set.size, 5);
    const list = txidListOf([a, b, 'zz', 'yy']);
    assert.deepEqual([0, 1, 2, 3].map((i) => set.hasAt(list, i)), [true, true, true, false]);
    assert.equal(set.delete(a), true);
    assert.deepEqual([0, 1].map((i) => set.hasAt(list, i)), [false, true]);
    assert.equal(set.delete('zz'), true);
    assert.deepEqual([...set].sort(), [b, 'not-hex', 'x'.repeat(64)].sort());
    assert.equal(set.size, 3);
  });

  it('reads the same key from bytes as from text', () => {
    for (const t of [txid(), txid().toUpperCase(), 'abc', 'g'.repeat(64)]) {
      const bytes = Buffer.from(`"${t}"`, 'latin1');
      assert.equal(txidKeyOfBytes(bytes, 1, t.length), txidKey(t));
    }
    assert.deepEqual(txidsOf(txidListOf(['a', 'b'])), ['a', 'b']);
  });
});
