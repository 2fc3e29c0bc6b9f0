import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MempoolJournal } from './mempool-journal.js';

const tx = (n: number): string => n.toString(16).padStart(64, '0');
const names = (j: MempoolJournal): string[] => j.pending().entries.map((e) => `${e.entered ? '+' : '-'}${Number.parseInt(e.txid, 16)}`);

describe('MempoolJournal', () => {
  it('is trusted only by a diff that began after an announcement arrived, and nothing was distrusted meanwhile', () => {
    const j = new MempoolJournal();
    // A diff before any announcement: the subscription may not have been live yet.
    j.diffDone(j.diffStarting());
    assert.equal(j.trusted, false);
    j.record(tx(1), true);
    const mark = j.diffStarting();
    j.record(tx(2), true);
    j.diffDone(mark);
    assert.equal(j.trusted, true);
    // The diff covered what was announced before it began; what came after waits.
    assert.deepEqual(names(j), ['+2']);
    // A loss during a diff: that diff does not restore trust.
    j.distrust();
    assert.equal(j.trusted, false);
    j.record(tx(3), true);
    const second = j.diffStarting();
    j.distrust();
    j.diffDone(second);
    assert.equal(j.trusted, false);
    j.record(tx(4), true);
    j.diffDone(j.diffStarting());
    assert.equal(j.trusted, true);
  });

  it("keeps each txid's last word, in the order of those last words", () => {
    const j = new MempoolJournal();
    j.record(tx(1), true);
    j.record(tx(2), true);
    j.record(tx(1), false);
    j.record(tx(3), true);
    j.record(tx(2), false);
    j.record(tx(2), true);
    assert.deepEqual(names(j), ['-1', '+3', '+2']);
    const { through } = j.pending();
    j.record(tx(4), true);
    j.consume(through);
    assert.deepEqual(names(j), ['+4'], 'what arrived after the pass took its entries stays');
  });

  it('asks again for a tx waiting for its parent a few times, then gives up on the journal', () => {
    const j = new MempoolJournal();
    j.record(tx(1), true);
    j.diffDone(j.diffStarting());
    assert.equal(j.trusted, true);
    for (let i = 0; i < 3; i++) {
      j.consume(j.pending().through);
      j.retry(tx(9));
      assert.deepEqual(names(j), ['+9']);
      assert.equal(j.trusted, true);
    }
    j.consume(j.pending().through);
    j.retry(tx(9));
    assert.equal(j.trusted, false, 'the whole list decides');
    // A retry is not an announcement: it does not prove the subscription live.
    j.diffDone(j.diffStarting());
    assert.equal(j.trusted, false);
  });

  it('a settled tx starts its count of retries again', () => {
    const j = new MempoolJournal();
    j.record(tx(1), true);
    j.diffDone(j.diffStarting());
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) j.retry(tx(7));
      j.settled(tx(7));
    }
    assert.equal(j.trusted, true);
  });

  it("orders a diff's new txids as the node announced them, the unannounced after them in the order given", () => {
    const j = new MempoolJournal();
    j.record(tx(3), true);
    j.record(tx(1), true);
    j.record(tx(5), false);
    j.record(tx(2), true);
    assert.deepEqual(j.arrivalOrder([tx(1), tx(9), tx(2), tx(5), tx(3), tx(8)]).map((t) => Number.parseInt(t, 16)), [3, 1, 2, 9, 5, 8]);
    assert.deepEqual(new MempoolJournal().arrivalOrder([tx(2), tx(1)]), [tx(2), tx(1)]);
  });

  it('a deferred departure keeps its announcement time and yields to a newer word about the same tx', () => {
    let now = 1_000;
    const j = new MempoolJournal(() => now);
    j.record(tx(1), false);
    const [left] = j.pending().entries;
    assert.equal(left!.since, 1_000);
    j.consume(j.pending().through);
    now = 1_400;
    j.defer(left!);
    assert.deepEqual(j.pending().entries, [{ txid: tx(1), entered: false, since: 1_000 }]);
    j.consume(j.pending().through);
    j.record(tx(1), true);
    j.defer(left!);
    assert.deepEqual(names(j), ['+1'], 'the newer announcement stands');
  });
});
