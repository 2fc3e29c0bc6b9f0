/** Conformance: FIFO history with cursors, unspent outputs and minimum-confirmation balances. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { NotFoundError } from '../../../core/domain/errors.js';
import type { NetworkStore } from '../../../core/store/network-store.js';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

const alice = p2pkh(1);
const bob = p2pkh(2);

/** Five blocks each paying alice; block 3 also has alice paying bob from block 0's coin; then one mempool tx. */
async function scenario(net: NetworkStore): Promise<{ coinbases: string[]; payBob: string; pending: string }> {
  const chain = new ChainBuilder();
  const coinbases: string[] = [];
  for (let h = 0; h < 3; h++) coinbases.push(chain.add(alice, 10n).block.txs[0]!.txid);
  const payBob = spend([{ txid: coinbases[0]!, vout: 0 }], [{ script: bob, value: 6n }, { script: alice, value: 3n }]);
  coinbases.push(chain.add(alice, 10n, [payBob]).block.txs[0]!.txid);
  coinbases.push(chain.add(alice, 10n).block.txs[0]!.txid);
  await net.connectBlocks(chain.blocks);
  const pending = spend([{ txid: coinbases[1]!, vout: 0 }], [{ script: bob, value: 9n }]);
  await net.addMempoolTxs([{ tx: pending, seenAt: 2_000_000_000 }]);
  return { coinbases, payBob: payBob.txid, pending: pending.txid };
}

export function addressTests(harness: StoreHarness): void {
  it('history is FIFO with mempool last, pages by after-txid, offset and kind', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const { coinbases, payBob, pending } = await scenario(net);
    const fifo = [coinbases[0], coinbases[1], coinbases[2], coinbases[3], payBob, coinbases[4], pending];
    const all = await net.getAddressHistory(alice, { limit: 100, direction: 'asc' });
    assert.deepEqual(all.map((e) => e.txid), fifo);
    assert.equal(all[4]!.received, 3n);
    assert.equal(all[4]!.sent, 10n);
    assert.deepEqual(all[4]!.spending, [{ vin: 0, value: 10n }]);
    assert.deepEqual(all[4]!.funding, [{ vout: 1, value: 3n }]);
    assert.equal(all[4]!.height, 3);
    assert.equal(all[6]!.height, null);
    assert.equal(all[6]!.time, 2_000_000_000);
    const desc = await net.getAddressHistory(alice, { limit: 100, direction: 'desc' });
    assert.deepEqual(desc.map((e) => e.txid), [...fifo].reverse());
    const page = await net.getAddressHistory(alice, { limit: 2, direction: 'asc', afterTxid: coinbases[2] });
    assert.deepEqual(page.map((e) => e.txid), [coinbases[3], payBob]);
    const tail = await net.getAddressHistory(alice, { limit: 5, direction: 'asc', afterTxid: payBob });
    assert.deepEqual(tail.map((e) => e.txid), [coinbases[4], pending]);
    const older = await net.getAddressHistory(alice, { limit: 2, direction: 'desc', afterTxid: payBob });
    assert.deepEqual(older.map((e) => e.txid), [coinbases[3], coinbases[2]]);
    const offset = await net.getAddressHistory(alice, { limit: 3, offset: 5, direction: 'asc' });
    assert.deepEqual(offset.map((e) => e.txid), [coinbases[4], pending]);
    const descOffset = await net.getAddressHistory(alice, { limit: 2, offset: 1, direction: 'desc' });
    assert.deepEqual(descOffset.map((e) => e.txid), [coinbases[4], payBob]);
    const spent = await net.getAddressHistory(alice, { limit: 10, direction: 'asc', kind: 'spent' });
    assert.deepEqual(spent.map((e) => e.txid), [payBob, pending]);
    const confirmedOnly = await net.getAddressHistory(alice, { limit: 10, direction: 'asc', includeMempool: false, kind: 'spent' });
    assert.deepEqual(confirmedOnly.map((e) => e.txid), [payBob]);
    await assert.rejects(net.getAddressHistory(alice, { limit: 1, direction: 'asc', afterTxid: pending }), NotFoundError);
    assert.deepEqual(await net.getAddressHistory(p2pkh(77), { limit: 10, direction: 'asc' }), []);
  }));

  it('unspent excludes outputs spent in the mempool and can append mempool outputs', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const { coinbases, payBob, pending } = await scenario(net);
    const utxos = await net.getUnspent(alice, { limit: 100, includeMempool: true });
    assert.deepEqual(utxos.map((u) => `${u.txid}:${u.vout}`), [coinbases[2], coinbases[3], `${payBob}:1`, coinbases[4]].map((t) => (t!.includes(':') ? t : `${t}:0`)));
    assert.equal(utxos[0]!.height, 2);
    assert.deepEqual(Buffer.from(utxos[0]!.script), Buffer.from(alice));
    const after = await net.getUnspent(alice, { limit: 100, includeMempool: false, afterTxid: coinbases[3] });
    assert.deepEqual(after.map((u) => u.txid), [payBob, coinbases[4]]);
    const paged = await net.getUnspent(alice, { limit: 2, offset: 2, includeMempool: false });
    assert.deepEqual(paged.map((u) => u.txid), [payBob, coinbases[4]]);
    const bobs = await net.getUnspent(bob, { limit: 100, includeMempool: true });
    assert.deepEqual(bobs.map((u) => [u.txid, u.height]), [[payBob, 3], [pending, null]]);
    const bobsTail = await net.getUnspent(bob, { limit: 5, offset: 1, includeMempool: true });
    assert.deepEqual(bobsTail.map((u) => u.txid), [pending]);
    assert.deepEqual((await net.getUnspent(bob, { limit: 100, includeMempool: false })).map((u) => u.txid), [payBob]);
  }));

  it('balances honour minimum confirmations and count txs', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    await scenario(net);
    const t = await net.getAddressTotals(alice);
    assert.equal(t.confirmedReceived, 53n);
    assert.equal(t.confirmedSent, 10n);
    assert.equal(t.confirmedBalance, 43n);
    assert.equal(t.txCount, 6);
    assert.equal(t.receivedTxCount, 6);
    assert.equal(t.sentTxCount, 1);
    assert.equal(t.unconfirmedSent, 10n);
    assert.equal(t.unconfirmedBalance, -10n);
    assert.equal(t.unconfirmedTxCount, 1);
    assert.deepEqual(await net.getAddressTotals(alice, { minConfirmations: 0 }), t);
    const two = await net.getAddressTotals(alice, { minConfirmations: 2 });
    assert.equal(two.confirmedBalance, 33n);
    assert.equal(two.txCount, 5);
    const three = await net.getAddressTotals(alice, { minConfirmations: 3 });
    assert.equal(three.confirmedReceived, 30n);
    assert.equal(three.confirmedSent, 0n);
    assert.equal(three.sentTxCount, 0);
    assert.equal((await net.getAddressTotals(alice, { minConfirmations: 1000 })).confirmedBalance, 0n);
    const nobody = await net.getAddressTotals(p2pkh(55));
    assert.equal(nobody.confirmedBalance, 0n);
    assert.equal(nobody.txCount, 0);
  }));
}
