/**
 * Conformance: reads over a set of scripts (a wallet's addresses) give each script's totals, the set's distinct tx
 * count, its history newest first with net amounts (an internal transfer nets to minus its fee), its confirmed flows
 * from and to outside it (per-tx nets: change and internal transfers cancel) and its unspent outputs oldest first,
 * mempool included; the same with a 2-bit key space, where every script collides and is probed.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { NetworkStore } from '../../../core/store/network-store.js';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import type { StoreHarness, StoreOptions } from '../harness.js';

const alice = p2pkh(11);
const bob = p2pkh(12);
const carol = p2pkh(13);
const dave = p2pkh(14);
/** The wallet: alice, bob and carol (dave is someone else). */
const wallet = [alice, bob, carol];

interface Scenario {
  readonly cb: string[];
  /** alice's 10 → dave 6, carol 3 (fee 1) */
  readonly a: string;
  /** bob's 10 → alice 5, bob 4.5 (fee 0.5): internal */
  readonly b: string;
  /** mempool: carol's 3 → dave 2.9 */
  readonly c: string;
  /** mempool: dave → alice 1 */
  readonly d: string;
}

async function scenario(net: NetworkStore, chain = new ChainBuilder()): Promise<Scenario> {
  const cb = [chain.add(alice, 1000n).block.txs[0]!.txid, chain.add(bob, 1000n).block.txs[0]!.txid];
  const a = spend([{ txid: cb[0]!, vout: 0 }], [{ script: dave, value: 600n }, { script: carol, value: 300n }]);
  cb.push(chain.add(dave, 1000n, [a]).block.txs[0]!.txid);
  const b = spend([{ txid: cb[1]!, vout: 0 }], [{ script: alice, value: 500n }, { script: bob, value: 450n }]);
  cb.push(chain.add(dave, 1000n, [b]).block.txs[0]!.txid);
  await net.connectBlocks(chain.blocks);
  const c = spend([{ txid: a.txid, vout: 1 }], [{ script: dave, value: 290n }]);
  const d = spend([{ txid: cb[2]!, vout: 0 }], [{ script: alice, value: 100n }, { script: dave, value: 899n }]);
  await net.addMempoolTxs([{ tx: c, seenAt: 2_000_000_000 }, { tx: d, seenAt: 2_000_000_010 }]);
  return { cb, a: a.txid, b: b.txid, c: c.txid, d: d.txid };
}

async function withNet(harness: StoreHarness, options: StoreOptions, fn: (net: NetworkStore) => Promise<void>): Promise<void> {
  const db = await harness.create(options);
  try {
    await db.store.migrate();
    await fn(db.store.network('BTC'));
  } finally {
    await db.dispose();
  }
}

export function scriptSetTests(harness: StoreHarness): void {
  for (const options of [{}, { scriptKeyBits: 2 }]) {
    const label = 'scriptKeyBits' in options ? ' (2-bit keys: every script collides)' : '';

    it(`totals of each script and the set's distinct tx count${label}`, () => withNet(harness, options, async (net) => {
      await scenario(net);
      const unknown = p2pkh(99);
      const totals = await net.scriptSets.getScriptTotals([alice, bob, carol, unknown, alice]);
      assert.deepEqual(totals[0], await net.getAddressTotals(alice));
      assert.deepEqual(totals[1], await net.getAddressTotals(bob));
      assert.deepEqual(totals[2], await net.getAddressTotals(carol));
      assert.deepEqual(totals[4], totals[0], 'a script given twice is answered twice');
      assert.equal(totals[0]!.confirmedBalance, 500n);
      assert.equal(totals[0]!.unconfirmedBalance, 100n);
      assert.equal(totals[2]!.unconfirmedBalance, -300n);
      assert.deepEqual(totals[3], await net.getAddressTotals(unknown));
      assert.equal(totals[3]!.txCount + totals[3]!.unconfirmedTxCount, 0);
      // cb0, cb1, a, b confirmed; c, d in the mempool. b touches alice and bob but counts once.
      assert.deepEqual(await net.scriptSets.getScriptSetTxCount(wallet), { confirmed: 4, mempool: 2 });
      assert.deepEqual(await net.scriptSets.getScriptSetTxCount([unknown]), { confirmed: 0, mempool: 0 });
      assert.deepEqual(await net.scriptSets.getScriptTotals([]), []);
      assert.deepEqual(await net.scriptSets.getScriptSetSummary(wallet), { totals: await net.scriptSets.getScriptTotals(wallet), txCount: { confirmed: 4, mempool: 2 } });
    }));

    it(`history newest first, mempool first, with the set's net per tx, paged${label}`, () => withNet(harness, options, async (net) => {
      const s = await scenario(net);
      const all = await net.scriptSets.getScriptSetHistory(wallet, { limit: 100, offset: 0 });
      assert.deepEqual(all.map((e) => e.txid), [s.d, s.c, s.b, s.a, s.cb[1], s.cb[0]]);
      assert.deepEqual(all.map((e) => e.received - e.sent), [100n, -300n, -50n, -700n, 1000n, 1000n]);
      const internal = all[2]!;
      assert.deepEqual(internal.funding, [{ vout: 0, value: 500n }, { vout: 1, value: 450n }], 'both outputs of the internal transfer pay the set');
      assert.deepEqual(internal.spending, [{ vin: 0, value: 1000n }]);
      assert.equal(internal.height, 3);
      assert.equal(all[0]!.height, null);
      assert.equal(all[0]!.time, 2_000_000_010);
      for (const [offset, limit] of [[0, 1], [1, 2], [2, 3], [5, 10], [6, 1]] as const) {
        const page = await net.scriptSets.getScriptSetHistory(wallet, { limit, offset });
        assert.deepEqual(page.map((e) => e.txid), all.slice(offset, offset + limit).map((e) => e.txid), `offset ${offset} limit ${limit}`);
      }
      assert.deepEqual(await net.scriptSets.getScriptSetHistory([p2pkh(99)], { limit: 10, offset: 0 }), []);
    }));

    it(`a block connected or disconnected changes the set's txs at once (the ids kept per tip follow it)${label}`, () => withNet(harness, options, async (net) => {
      const chain = new ChainBuilder();
      const s = await scenario(net, chain);
      const before = await net.scriptSets.getScriptSetHistory(wallet, { limit: 100, offset: 0 });
      assert.deepEqual(await net.scriptSets.getScriptSetTxCount(wallet), { confirmed: 4, mempool: 2 });
      const next = chain.add(carol, 777n);
      await net.connectBlocks([next]);
      const after = await net.scriptSets.getScriptSetHistory(wallet, { limit: 100, offset: 0 });
      assert.deepEqual(after.map((e) => e.txid), [s.d, s.c, next.block.txs[0]!.txid, ...before.slice(2).map((e) => e.txid)]);
      assert.deepEqual(await net.scriptSets.getScriptSetTxCount(wallet), { confirmed: 5, mempool: 2 });
      await net.disconnectTip(next.block.header.hash);
      assert.deepEqual((await net.scriptSets.getScriptSetHistory(wallet, { limit: 100, offset: 0 })).map((e) => e.txid), before.map((e) => e.txid));
      assert.deepEqual(await net.scriptSets.getScriptSetTxCount(wallet), { confirmed: 4, mempool: 2 });
    }));

    it(`confirmed flows from and to outside the set: per-tx nets, mempool left out, following the tip${label}`, () => withNet(harness, options, async (net) => {
      const chain = new ChainBuilder();
      await scenario(net, chain);
      // Confirmed: cb0 +1000 (alice), cb1 +1000 (bob), a −700 (alice's 1000 out, carol's change 300 back), b −50
      // (bob's 1000 to alice 500 and bob 450: internal, minus the fee). c and d are in the mempool: left out.
      const flows = await net.scriptSets.getScriptSetFlows(wallet);
      assert.deepEqual(flows, { received: 2000n, sent: 750n });
      const totals = await net.scriptSets.getScriptTotals(wallet);
      assert.equal(flows.received - flows.sent, totals.reduce((s, t) => s + t.confirmedBalance, 0n), 'received − sent is the confirmed balance');
      assert.deepEqual(await net.scriptSets.getScriptSetFlows([alice]), { received: 1500n, sent: 1000n }, "alone, alice's receipt from bob comes from outside");
      assert.deepEqual(await net.scriptSets.getScriptSetFlows([p2pkh(99)]), { received: 0n, sent: 0n });
      const next = chain.add(carol, 777n);
      await net.connectBlocks([next]);
      assert.deepEqual(await net.scriptSets.getScriptSetFlows(wallet), { received: 2777n, sent: 750n }, 'a new block is counted at once');
      await net.disconnectTip(next.block.header.hash);
      assert.deepEqual(await net.scriptSets.getScriptSetFlows(wallet), { received: 2000n, sent: 750n }, 'and a disconnected one forgotten');
    }));

    it(`unspent outputs oldest first with their scripts, none spent in the mempool${label}`, () => withNet(harness, options, async (net) => {
      const s = await scenario(net);
      const utxos = await net.scriptSets.getScriptSetUnspent(wallet, { limit: 100, offset: 0 });
      // a:1 (carol's 3) is spent by c in the mempool; cb0 and cb1 are spent by a and b.
      assert.deepEqual(utxos.map((u) => `${u.txid}:${u.vout}`), [`${s.b}:0`, `${s.b}:1`, `${s.d}:0`]);
      assert.deepEqual(utxos.map((u) => Buffer.from(u.script).toString('hex')), [alice, bob, alice].map((x) => Buffer.from(x).toString('hex')));
      assert.deepEqual(utxos.map((u) => u.height), [3, 3, null]);
      assert.deepEqual(utxos.map((u) => u.value), [500n, 450n, 100n]);
      for (const [offset, limit] of [[0, 1], [1, 1], [2, 5], [1, 2], [3, 1]] as const) {
        const page = await net.scriptSets.getScriptSetUnspent(wallet, { limit, offset });
        assert.deepEqual(page.map((u) => `${u.txid}:${u.vout}`), utxos.slice(offset, offset + limit).map((u) => `${u.txid}:${u.vout}`), `offset ${offset} limit ${limit}`);
      }
    }));
  }
}
