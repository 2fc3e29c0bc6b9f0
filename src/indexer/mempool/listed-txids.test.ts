import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { TxidSet, txidListOf } from '../../core/index.js';
import { storedFlags } from './listed-txids.js';

const txid = (): string => randomBytes(32).toString('hex');

/** What looking every txid up gives. */
const lookedUp = (list: string[], ours: TxidSet): number[] => list.map((t) => (ours.has(t) ? 1 : 0));

describe('storedFlags', () => {
  it('answers as looking every txid up does, with or without the previous list, whatever changed between them', () => {
    let seed = 1;
    const random = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let round = 0; round < 200; round++) {
      const before = Array.from({ length: Math.floor(random() * 300) }, txid);
      const ours = new TxidSet(before.filter(() => random() < 0.95));
      const previous = { list: txidListOf(before), stored: Uint8Array.from(lookedUp(before, ours)) };
      // The next list: some left, some inserted anywhere, sometimes two swapped, sometimes a stored one not listed before.
      const next = before.filter(() => random() > 0.05);
      for (let k = Math.floor(random() * 10); k > 0; k--) next.splice(Math.floor(random() * (next.length + 1)), 0, txid());
      if (next.length > 2 && random() < 0.3) {
        const a = Math.floor(random() * next.length);
        const b = Math.floor(random() * next.length);
        [next[a], next[b]] = [next[b]!, next[a]!];
      }
      if (random() < 0.3) {
        const extra = txid();
        ours.add(extra);
        next.splice(Math.floor(random() * (next.length + 1)), 0, extra);
      }
      const expected = lookedUp(next, ours);
      // ours as the last pass left it plus what it added: the previous flags are of that set.
      assert.deepEqual([...storedFlags(txidListOf(next), ours, null)], expected);
      const withExtraKnown = { list: previous.list, stored: Uint8Array.from(lookedUp(before, ours)) };
      assert.deepEqual([...storedFlags(txidListOf(next), ours, withExtraKnown)], expected, `round ${round}`);
    }
  });

  it('takes a run shared with the previous list from it, looking up only the rest', () => {
    const before = Array.from({ length: 1000 }, txid);
    const ours = new TxidSet(before);
    const inserted = txid();
    const next = [...before.slice(0, 500), inserted, ...before.slice(500)];
    let lookups = 0;
    const counting = Object.assign(Object.create(Object.getPrototypeOf(ours) as object) as TxidSet, ours);
    counting.hasAt = (list, i) => {
      lookups++;
      return ours.hasAt(list, i);
    };
    const flags = storedFlags(txidListOf(next), counting, { list: txidListOf(before), stored: new Uint8Array(1000).fill(1) });
    assert.equal(flags.reduce((n, f) => n + f, 0), 1000);
    assert.equal(flags[500], 0);
    assert.ok(lookups <= 2, `${lookups} lookups`);
  });
});
