import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { OutputColumns } from '../../common/chain-writes/block-rows.js';
import { forEachHeldOutput, HeldOutputs, type HeldBatch } from './postgres-held-outputs.js';

/** A txid as a hash of its label: uniform bytes, as real txids. */
const txid = (label: string): Uint8Array => createHash('sha256').update(label).digest();

/** `counts[t]` outputs for tx t, output (t, v) worth 1000 * id + v. */
function outputsOf(firstId: number, counts: readonly number[]): OutputColumns {
  const o: OutputColumns = { id: [], vout: [], value: [], script: [], spentBy: [], spentVin: [] };
  counts.forEach((count, t) => {
    for (let v = 0; v < count; v++) {
      o.id.push(firstId + t); o.vout.push(v); o.value.push(BigInt(1000 * (firstId + t) + v)); o.script.push(2 ** 46 + t);
      o.spentBy.push(null); o.spentVin.push(null);
    }
  });
  return o;
}

function rowsOf(batches: readonly HeldBatch[]): string[] {
  const rows: string[] = [];
  for (const b of batches) forEachHeldOutput(b, (...row) => rows.push(row.join(',')));
  return rows;
}

describe('HeldOutputs', () => {
  it('finds every held output through table rebuilds, marks each spend once and forgets released batches', () => {
    const held = new HeldOutputs(3_000);
    // A reference model: txid label -> its id while held.
    const model = new Map<string, number>();
    let next = 0;
    for (let batch = 0; batch < 12; batch++) {
      held.align(next);
      const count = 700 + batch * 37;
      const labels = Array.from({ length: count }, (_, t) => `tx${next + t}`);
      held.add(next, labels.map(txid), outputsOf(next, labels.map((_, t) => 1 + (t % 3))));
      labels.forEach((l, t) => model.set(l, next + t));
      next += count;
      const released = held.release();
      for (const b of released) for (let t = 0; t < b.txCount; t++) model.delete(`tx${b.firstId + t}`);
      assert.ok(next - held.from <= 3_000 + count, 'at most one batch over the capacity stays held');
      // Every held tx's output 0 can be spent once; a released one and an unknown txid cannot.
      for (const [label, id] of model) {
        if (id % 97 !== batch) continue;
        assert.equal(held.spend(txid(label), 0, next + 1, 4), BigInt(1000 * id), label);
        assert.equal(held.spend(txid(label), 0, next + 2, 5), null, `${label} spent twice`);
      }
      assert.equal(held.spend(txid('never'), 0, 1, 0), null);
    }
    assert.equal(held.spend(txid('tx0'), 0, 1, 0), null, 'released long ago');
    const last = held.release(true);
    assert.equal(last.reduce((n, b) => n + b.txCount, 0), model.size);
    assert.equal(held.from, next, 'nothing is held after the last release');
  });

  it('writes each output once with its spend, a vout beyond the tx and a second spend left to the build', () => {
    const held = new HeldOutputs(10);
    held.align(5);
    held.add(5, [txid('a'), txid('b')], outputsOf(5, [2, 1]));
    assert.equal(held.spend(txid('a'), 1, 7, 3), 5001n);
    assert.equal(held.spend(txid('a'), 2, 7, 4), null, 'tx a has two outputs');
    assert.equal(held.spend(txid('a'), 1, 8, 0), null, 'already spent');
    assert.deepEqual(rowsOf(held.release(true)), ['5,0,5000,70368744177664,,', '5,1,5001,70368744177664,7,3', '6,0,6000,70368744177665,,']);
  });

  it('spends the newest copy of a duplicate txid (BIP30) and refuses a batch out of order', () => {
    const held = new HeldOutputs(10);
    held.align(0);
    held.add(0, [txid('dup'), txid('x')], outputsOf(0, [1, 1]));
    held.align(2);
    held.add(2, [txid('dup')], outputsOf(2, [1]));
    assert.equal(held.spend(txid('dup'), 0, 9, 0), 2000n, 'the copy at id 2');
    assert.equal(held.spend(txid('dup'), 0, 9, 1), null);
    assert.throws(() => held.align(5), /held up to tx 3/);
    held.release(true);
    held.align(1); // a window starting again below what it held: its old ids must not come back
    held.add(1, [txid('y')], outputsOf(1, [1]));
    assert.equal(held.spend(txid('x'), 0, 9, 0), null, 'x (id 1 before) is not held');
    assert.equal(held.spend(txid('dup'), 0, 9, 0), null, 'dup (id 2 before) is not held');
    assert.equal(held.spend(txid('y'), 0, 9, 0), 1000n);
  });

  it('refuses a value a signed 64-bit column cannot hold instead of wrapping it', () => {
    const held = new HeldOutputs(10);
    const o = outputsOf(0, [1]);
    o.value[0] = 1n << 63n;
    assert.throws(() => held.add(0, [txid('big')], o), /does not fit/);
  });
});
