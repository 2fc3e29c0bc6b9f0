/**
 * Conformance: a tx confirmed again in another block after a reorg is stored twice (tx ids are never reused): every
 * read answers with its main-chain copy, and its outputs are spent from that copy.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

export function reorgTests(harness: StoreHarness): void {
  it('a tx mined again after a reorg answers from its main-chain copy, which later blocks spend', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const [alice, bob, carol] = [p2pkh(1), p2pkh(2), p2pkh(3)];
    const chain = new ChainBuilder();
    const b0 = chain.add(alice, 50n);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: bob, value: 49n }]);
    const b1 = chain.add(p2pkh(9), 50n, [pay]);
    await net.connectBlocks([b0, b1]);
    await net.disconnectTip(b1.block.header.hash);
    // The fork mines the same tx at another position, then spends its output.
    const fork = chain.forkAt(1);
    const f1 = fork.add(p2pkh(7), 50n);
    const f2 = fork.add(p2pkh(7), 50n, [pay]);
    const onward = spend([{ txid: pay.txid, vout: 0 }], [{ script: carol, value: 48n }]);
    const f3 = fork.add(p2pkh(7), 50n, [onward]);
    await net.connectBlocks([f1, f2, f3]);

    const tx = await net.getTransaction(pay.txid);
    assert.equal(tx?.status, 'confirmed');
    assert.equal(tx?.blockHash, f2.block.header.hash);
    assert.equal(tx?.height, 2);
    assert.equal(tx?.position, 1);
    assert.equal(tx?.fee, 1n);
    assert.deepEqual((await net.getOutputs(pay.txid))?.map((o) => o.spentBy?.txid), [onward.txid]);
    assert.equal((await net.getAddressTotals(bob)).confirmedBalance, 0n);
    assert.equal((await net.getAddressTotals(carol)).confirmedBalance, 48n);
    const history = await net.getAddressHistory(bob, { limit: 10, direction: 'asc' });
    assert.deepEqual(history.map((h) => [h.txid, h.height]), [[pay.txid, 2], [onward.txid, 3]]);
    const page = await net.getAddressHistory(bob, { limit: 10, direction: 'asc', afterTxid: pay.txid });
    assert.deepEqual(page.map((h) => h.txid), [onward.txid]);

    // Both copies orphaned: the newest answers.
    await net.disconnectTip(f3.block.header.hash);
    await net.disconnectTip(f2.block.header.hash);
    const orphaned = await net.getTransaction(pay.txid);
    assert.equal(orphaned?.status, 'orphaned');
    assert.equal(orphaned?.blockHash, f2.block.header.hash);
    assert.equal(orphaned?.fee, 1n);
    assert.deepEqual(orphaned?.prevouts.map((p) => p?.txid), [b0.block.txs[0]!.txid]);
    assert.equal(await net.getOutputs(pay.txid), null);
    assert.equal((await net.getAddressTotals(alice)).confirmedBalance, 50n);

    // Back to the first chain: its block gets its old ids back, so the main-chain copy is now the older one.
    await net.disconnectTip(f1.block.header.hash);
    const b2 = chain.add(p2pkh(9), 50n, [onward]);
    await net.connectBlocks([b1, b2]);
    const again = await net.getTransaction(pay.txid);
    assert.equal(again?.status, 'confirmed');
    assert.equal(again?.blockHash, b1.block.header.hash);
    assert.equal(again?.height, 1);
    assert.deepEqual((await net.getOutputs(pay.txid))?.map((o) => o.spentBy?.txid), [onward.txid]);
    assert.deepEqual((await net.getAddressHistory(bob, { limit: 10, direction: 'desc' })).map((h) => [h.txid, h.height]),
      [[onward.txid, 2], [pay.txid, 1]]);
    assert.equal((await net.getAddressTotals(carol)).confirmedBalance, 48n);
  }));
}
