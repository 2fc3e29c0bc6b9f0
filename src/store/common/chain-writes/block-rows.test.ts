import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreError } from '../../../core/domain/errors.js';
import { ChainBuilder, p2pkh, spend } from '../../conformance/block-builder.js';
import { collectBatchNeeds, type BatchNeeds } from './batch-needs.js';
import { buildBatchRows, type ResolvedOutput } from './block-rows.js';
import { scriptKey } from '../schema/codec.js';

const alice = p2pkh(1);
const bob = p2pkh(2);
const carol = p2pkh(3);

/** Script keys in first-seen order, as a driver would assign new ones. */
function keysFor(needs: BatchNeeds, known: Map<string, number> = new Map()): Map<string, number> {
  for (const key of needs.scripts.keys()) if (!known.has(key)) known.set(key, 100 + known.size);
  return known;
}

/** Tx ids from `first`, one per tx of the batch. */
function idsFrom(needs: BatchNeeds, first: number): number[] {
  return needs.txids.map((_, i) => first + i);
}

/** Block 0 (alice's coinbase, stored before the batch, tx id 0) and a batch: block 1 spending it and, in-batch, its own output. */
function fixture(): { coinbaseTxid: string; payTxid: string; onwardTxid: string; batch: ChainBuilder['blocks'] } {
  const chain = new ChainBuilder();
  const b0 = chain.add(alice, 50n);
  const coinbaseTxid = b0.block.txs[0]!.txid;
  const pay = spend([{ txid: coinbaseTxid, vout: 0 }], [{ script: bob, value: 30n }, { script: alice, value: 15n }]);
  const onward = spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 29n }]);
  chain.add(bob, 50n, [pay, onward]);
  return { coinbaseTxid, payTxid: pay.txid, onwardTxid: onward.txid, batch: chain.blocks.slice(1) };
}

const aliceCoinbase: ResolvedOutput = { id: 0, value: 50n, scriptKey: 7, script: alice };

describe('collectBatchNeeds / buildBatchRows', () => {
  it('resolves in-batch spends itself and external ones through the driver', () => {
    const { coinbaseTxid, payTxid, onwardTxid, batch } = fixture();
    const needs = collectBatchNeeds(batch);
    assert.deepEqual(needs.externalPrevouts.map((p) => ({ txid: p.txid, vout: p.vout, spender: p.spender, vin: p.vin })),
      [{ txid: coinbaseTxid, vout: 0, spender: 1, vin: 0 }]);
    assert.deepEqual([...needs.scripts.keys()], [bob, alice, carol].map(scriptKey));
    const keys = keysFor(needs, new Map([[scriptKey(alice), 7]]));
    const rows = buildBatchRows(batch, needs, { txIds: idsFrom(needs, 1), scriptKeys: keys, external: [aliceCoinbase] });

    assert.deepEqual(rows.txs.map((t) => [t.id, t.txidHex]), [[1, batch[0]!.block.txs[0]!.txid], [2, payTxid], [3, onwardTxid]]);
    // The output spent inside the batch is written spent; the external one is the driver's to mark.
    assert.deepEqual(rows.outputs.id, [1, 2, 2, 3]);
    assert.deepEqual(rows.outputs.spentBy, [null, 3, null, null]);
    assert.deepEqual(rows.outputs.spentVin, [null, 0, null, null]);
    const bobKey = keys.get(scriptKey(bob))!;
    const carolKey = keys.get(scriptKey(carol))!;
    assert.deepEqual(rows.outputs.script, [bobKey, bobKey, 7, carolKey]);
    // One history row per (script, tx): alice both spends and receives in pay (flags 1 | 2).
    assert.deepEqual(rows.history.script.map((s, i) => [s, rows.history.id[i], rows.history.flags[i]]),
      [[bobKey, 1, 1], [7, 2, 3], [bobKey, 2, 1], [bobKey, 3, 2], [carolKey, 3, 1]]);

    const [summary] = rows.summaries;
    assert.deepEqual([summary!.fees, summary!.reward, summary!.valueOut], [6n, 50n, 124n]);
    assert.equal(rows.blocks[0]!.firstTx, 1);
    assert.equal(rows.blocks[0]!.fees, 6n);
    // Per tx, inputs' scripts first.
    assert.deepEqual(summary!.deltas.map((d) => [scriptKey(d.script), d.txid, d.received, d.sent]), [
      [scriptKey(bob), batch[0]!.block.txs[0]!.txid, 50n, 0n],
      [scriptKey(alice), payTxid, 15n, 50n],
      [scriptKey(bob), payTxid, 30n, 0n],
      [scriptKey(bob), onwardTxid, 0n, 30n],
      [scriptKey(carol), onwardTxid, 29n, 0n],
    ]);
    assert.deepEqual(rows.totals, [
      { scriptId: bobKey, received: 80n, sent: 30n, txCount: 3, receivedCount: 2, sentCount: 1 },
      { scriptId: 7, received: 15n, sent: 50n, txCount: 1, receivedCount: 1, sentCount: 1 },
      { scriptId: carolKey, received: 29n, sent: 0n, txCount: 1, receivedCount: 1, sentCount: 0 },
    ]);
    assert.deepEqual(rows.newTip, { height: 1, hash: batch[0]!.block.header.hash });
  });

  it('reports a missing prevout, a prevout spent twice in the batch and an unresolved script', () => {
    const { coinbaseTxid, batch } = fixture();
    const needs = collectBatchNeeds(batch);
    assert.throws(() => buildBatchRows(batch, needs, { txIds: idsFrom(needs, 1), scriptKeys: keysFor(needs), external: [undefined] }),
      (e: unknown) => e instanceof StoreError && e.message === `missing prevout ${coinbaseTxid}:0`);
    const keys = keysFor(needs);
    keys.delete(scriptKey(carol));
    assert.throws(() => buildBatchRows(batch, needs, { txIds: idsFrom(needs, 1), scriptKeys: keys, external: [aliceCoinbase] }),
      (e: unknown) => e instanceof StoreError && /script key not resolved/.test(e.message));

    const chain = new ChainBuilder();
    const b0 = chain.add(alice, 50n);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: bob, value: 30n }]);
    chain.add(bob, 50n, [pay, spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 1n }]), spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 2n }])]);
    const twice = collectBatchNeeds(chain.blocks);
    assert.throws(() => buildBatchRows(chain.blocks, twice, { txIds: idsFrom(twice, 0), scriptKeys: keysFor(twice), external: [] }),
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
    const keys = keysFor(needs, new Map([[scriptKey(alice), 1]]));
    const rows = buildBatchRows(batch, needs, { txIds: idsFrom(needs, 1), scriptKeys: keys, external: [{ id: 0, value: max, scriptKey: 1, script: alice }] });
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
    assert.deepEqual(needs.externalPrevouts.map((p) => [p.txid, p.vout, p.spender, p.vin]), [[cbTxid, 0, 2, 0]]);
  });
});
