import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreError } from '../../core/errors.js';
import { ChainBuilder, p2pkh, spend } from '../conformance/block-builder.js';
import { buildBatchRows, collectBatchNeeds, type BatchNeeds, type ResolvedOutput } from './block-rows.js';
import { bytesToHex, outpointKey, scriptKey, unpackPrevouts } from './codec.js';

const alice = p2pkh(1);
const bob = p2pkh(2);
const carol = p2pkh(3);

/** Script ids in first-seen order, as a driver would assign them. */
function idsFor(needs: BatchNeeds, known: Map<string, number> = new Map()): Map<string, number> {
  for (const key of needs.scripts.keys()) if (!known.has(key)) known.set(key, known.size + 1);
  return known;
}

/** Block 0 (alice's coinbase, stored before the batch) and a batch: block 1 spending it and, in-batch, its own output. */
function fixture(): {
  chain: ChainBuilder; coinbaseTxid: string; payTxid: string; onwardTxid: string; batch: ChainBuilder['blocks'];
} {
  const chain = new ChainBuilder();
  const b0 = chain.add(alice, 50n);
  const coinbaseTxid = b0.block.txs[0]!.txid;
  const pay = spend([{ txid: coinbaseTxid, vout: 0 }], [{ script: bob, value: 30n }, { script: alice, value: 15n }]);
  const onward = spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 29n }]);
  chain.add(bob, 50n, [pay, onward]);
  return { chain, coinbaseTxid, payTxid: pay.txid, onwardTxid: onward.txid, batch: chain.blocks.slice(1) };
}

describe('collectBatchNeeds / buildBatchRows', () => {
  it('resolves in-batch spends itself and external ones through the driver', () => {
    const { coinbaseTxid, payTxid, onwardTxid, batch } = fixture();
    const needs = collectBatchNeeds(batch);
    assert.deepEqual(needs.externalPrevouts.map((p) => ({ txid: p.txid, vout: p.vout, spender: bytesToHex(p.spender), vin: p.vin })),
      [{ txid: coinbaseTxid, vout: 0, spender: payTxid, vin: 0 }]);
    assert.deepEqual([...needs.scripts.keys()], [bob, alice, carol].map(scriptKey));
    const ids = idsFor(needs, new Map([[scriptKey(alice), 7]]));
    const prevouts = new Map<string, ResolvedOutput>([[outpointKey(coinbaseTxid, 0), { value: 50n, scriptId: 7, script: alice }]]);
    const rows = buildBatchRows(batch, needs, ids, prevouts);

    const [cb, pay, onward] = rows.txs;
    assert.deepEqual(rows.txs.map((t) => t.txidHex), [batch[0]!.block.txs[0]!.txid, payTxid, onwardTxid]);
    assert.deepEqual([cb!.fee, pay!.fee, onward!.fee], [null, 5n, 1n]);
    assert.deepEqual(unpackPrevouts(cb!.prevouts), [null]);
    assert.deepEqual(unpackPrevouts(pay!.prevouts), [{ txid: coinbaseTxid, vout: 0, value: 50n, scriptId: 7 }]);
    assert.deepEqual(unpackPrevouts(onward!.prevouts), [{ txid: payTxid, vout: 0, value: 30n, scriptId: ids.get(scriptKey(bob)) }]);
    // The output spent inside the batch is written spent; the external one is the driver's to mark (needs above).
    assert.deepEqual(rows.outputs.spentTxid.map((t) => (t ? bytesToHex(t) : null)), [null, onwardTxid, null, null]);
    assert.deepEqual(rows.outputs.spentVin, [null, 0, null, null]);
    assert.deepEqual(rows.history.io, [0, 1, 0, 0, 1, 0]);
    assert.deepEqual(rows.history.value, [50n, 50n, 30n, 15n, 30n, 29n]);

    const [summary] = rows.summaries;
    assert.deepEqual([summary!.fees, summary!.reward, summary!.valueOut], [6n, 50n, 124n]);
    assert.equal(rows.blocks[0]!.txids.toString('hex'), rows.txs.map((t) => t.txidHex).join(''));
    // Per tx, inputs' scripts first; alice both spends and receives in the same tx: one delta, one tx counted.
    assert.deepEqual(summary!.deltas.map((d) => [scriptKey(d.script), d.txid, d.received, d.sent]), [
      [scriptKey(bob), cb!.txidHex, 50n, 0n],
      [scriptKey(alice), payTxid, 15n, 50n],
      [scriptKey(bob), payTxid, 30n, 0n],
      [scriptKey(bob), onwardTxid, 0n, 30n],
      [scriptKey(carol), onwardTxid, 29n, 0n],
    ]);
    assert.deepEqual(rows.totals, [
      { scriptId: ids.get(scriptKey(bob)), received: 80n, sent: 30n, txCount: 3, receivedCount: 2, sentCount: 1 },
      { scriptId: 7, received: 15n, sent: 50n, txCount: 1, receivedCount: 1, sentCount: 1 },
      { scriptId: ids.get(scriptKey(carol)), received: 29n, sent: 0n, txCount: 1, receivedCount: 1, sentCount: 0 },
    ]);
    assert.deepEqual(rows.newTip, { height: 1, hash: batch[0]!.block.header.hash });
  });

  it('reports a missing prevout, a prevout spent twice in the batch and an unresolved script', () => {
    const { coinbaseTxid, batch } = fixture();
    const needs = collectBatchNeeds(batch);
    assert.throws(() => buildBatchRows(batch, needs, idsFor(needs), new Map()),
      (e: unknown) => e instanceof StoreError && e.message === `missing prevout ${coinbaseTxid}:0`);
    const prevouts = new Map([[outpointKey(coinbaseTxid, 0), { value: 50n, scriptId: 99, script: alice }]]);
    const ids = idsFor(needs);
    ids.delete(scriptKey(carol));
    assert.throws(() => buildBatchRows(batch, needs, ids, prevouts), (e: unknown) => e instanceof StoreError && /script id not resolved/.test(e.message));

    const chain = new ChainBuilder();
    const b0 = chain.add(alice, 50n);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: bob, value: 30n }]);
    chain.add(bob, 50n, [pay, spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 1n }]), spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 2n }])]);
    const twice = collectBatchNeeds(chain.blocks);
    assert.throws(() => buildBatchRows(chain.blocks, twice, idsFor(twice), new Map()),
      (e: unknown) => e instanceof StoreError && e.message === `missing prevout ${pay.txid}:0`);
  });

  it('keeps values and sums beyond 2^64 exact and merges a script seen as output and as external prevout', () => {
    const max = 2n ** 64n - 1n;
    const chain = new ChainBuilder();
    const b0 = chain.add(alice, max);
    const cbTxid = b0.block.txs[0]!.txid;
    const pay = spend([{ txid: cbTxid, vout: 0 }], [{ script: alice, value: max - 1n }, { script: bob, value: 1n }]);
    chain.add(alice, max, [pay]);
    const batch = chain.blocks.slice(1);
    const needs = collectBatchNeeds(batch);
    const ids = idsFor(needs, new Map([[scriptKey(alice), 1]]));
    const rows = buildBatchRows(batch, needs, ids, new Map([[outpointKey(cbTxid, 0), { value: max, scriptId: 1, script: alice }]]));
    assert.deepEqual(unpackPrevouts(rows.txs[1]!.prevouts), [{ txid: cbTxid, vout: 0, value: max, scriptId: 1 }]);
    assert.equal(rows.summaries[0]!.valueOut, 2n * max);
    assert.equal(rows.summaries[0]!.fees, 0n);
    assert.deepEqual(rows.totals[0], { scriptId: 1, received: 2n * max - 1n, sent: max, txCount: 2, receivedCount: 2, sentCount: 1 });
    assert.equal(rows.totals.length, 2);
  });

  it('lists an outpoint spent by two batch txs once, with the last spender', () => {
    const chain = new ChainBuilder();
    const b0 = chain.add(alice, 50n);
    const cbTxid = b0.block.txs[0]!.txid;
    const first = spend([{ txid: cbTxid, vout: 0 }], [{ script: bob, value: 1n }]);
    const second = spend([{ txid: cbTxid, vout: 0 }], [{ script: carol, value: 2n }]);
    chain.add(bob, 50n, [first, second]);
    const needs = collectBatchNeeds(chain.blocks.slice(1));
    assert.deepEqual(needs.externalPrevouts.map((p) => [p.txid, p.vout, bytesToHex(p.spender), p.vin]), [[cbTxid, 0, second.txid, 0]]);
  });
});
