/** Conformance: mempool add/remove/confirm and double-spend recording; mempool samples (the explorer's 24-hour chart). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

export function mempoolTests(harness: StoreHarness): void {
  it('adds parents and children in any order, reports missing parents, confirms and evicts', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const bob = p2pkh(2);
    const b0 = chain.add(alice, 100n);
    await net.connectBlocks([b0]);
    const parent = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: bob, value: 60n }, { script: alice, value: 39n }]);
    const child = spend([{ txid: parent.txid, vout: 0 }], [{ script: p2pkh(3), value: 59n }]);
    const orphan = spend([{ txid: 'cd'.repeat(32), vout: 0 }], [{ script: bob, value: 1n }]);
    const results = await net.addMempoolTxs([{ tx: child, seenAt: 1000 }, { tx: parent, seenAt: 999 }, { tx: orphan, seenAt: 1001 }]);
    assert.deepEqual(results.map((r) => r.status), ['added', 'added', 'missing-parent']);
    assert.equal(results[1]!.fee, 1n);
    assert.deepEqual(results[2]!.missing, [{ txid: 'cd'.repeat(32), vout: 0 }]);
    assert.ok(results[1]!.deltas.some((d) => d.received === 39n && d.sent === 100n));
    // The write result carries what each input spent (a confirmed output, and one of a tx added in the same call),
    // exactly what a read of the stored tx answers: events need no re-read.
    const spentBy = (txid: string) => async () => (await net.getTransaction(txid))?.prevouts.map((p) => p && { ...p, script: Buffer.from(p.script).toString('hex') });
    const asHex = (r: (typeof results)[number]) => r.prevouts.map((p) => ({ ...p, script: Buffer.from(p.script).toString('hex') }));
    assert.deepEqual(asHex(results[1]!), await spentBy(parent.txid)());
    assert.deepEqual(asHex(results[0]!), await spentBy(child.txid)());
    assert.deepEqual(asHex(results[1]!).map((p) => [p.txid, p.vout, p.value]), [[b0.block.txs[0]!.txid, 0, 100n]]);
    assert.deepEqual(results[2]!.prevouts, []);
    assert.equal((await net.addMempoolTxs([{ tx: parent, seenAt: 5 }]))[0]!.status, 'known');
    assert.deepEqual((await net.getMempoolTxids()).sort(), [parent.txid, child.txid].sort());
    const info = await net.getMempoolInfo();
    assert.equal(info.count, 2);
    assert.equal(info.bytes, parent.size + child.size);
    // By txid: the listed live ones, as the whole read gives them; unknown txids are left out.
    const byTxid = async (txids: string[]) => (await net.getMempoolEntriesOf(txids)).sort((a, b) => a.txid.localeCompare(b.txid));
    const whole = (await net.getMempoolEntries()).sort((a, b) => a.txid.localeCompare(b.txid));
    assert.deepEqual(await byTxid([child.txid, 'ab'.repeat(32), parent.txid]), whole);
    assert.deepEqual((await net.getMempoolEntriesOf([child.txid])).map((e) => [e.txid, e.size, e.seenAt]), [[child.txid, child.size, 1000]]);
    assert.deepEqual(await net.getMempoolEntriesOf([]), []);
    const bobTotals = await net.getAddressTotals(bob);
    assert.equal(bobTotals.unconfirmedReceived, 60n);
    assert.equal(bobTotals.unconfirmedSent, 60n);
    assert.equal(bobTotals.unconfirmedTxCount, 2);
    assert.equal((await net.getTransaction(child.txid))?.status, 'mempool');
    assert.equal((await net.getTransaction(child.txid))?.time, 1000);
    assert.deepEqual((await net.getOutputs(parent.txid))?.[0]?.spentBy, { txid: child.txid, vin: 0, confirmed: false });
    // The parent confirms: it leaves the mempool, the child stays and still spends its output.
    const [summary] = await net.connectBlocks([chain.add(p2pkh(9), 50n, [parent])]);
    assert.deepEqual(summary!.confirmedFromMempool, [parent.txid]);
    assert.deepEqual(await net.getMempoolTxids(), [child.txid]);
    const confirmed = await net.getTransaction(parent.txid);
    assert.equal(confirmed?.status, 'confirmed');
    assert.equal(confirmed?.seenAt, 999);
    assert.equal((await net.getAddressTotals(bob)).confirmedReceived, 60n);
    assert.equal((await net.getAddressTotals(bob)).unconfirmedSent, 60n);
    assert.deepEqual((await net.getOutputs(parent.txid))?.[0]?.spentBy, { txid: child.txid, vin: 0, confirmed: false });
    assert.deepEqual(await net.getMempoolEntriesOf([parent.txid]), [], 'a confirmed tx is not in the mempool');
    assert.deepEqual(await net.removeMempoolTxs([child.txid], 'evicted'), [child.txid]);
    assert.equal((await net.getMempoolInfo()).count, 0);
    assert.deepEqual(await net.getMempoolEntriesOf([child.txid]), [], 'nor is an evicted one');
    assert.equal(await net.getTransaction(child.txid), null);
    assert.equal((await net.getAddressTotals(bob)).unconfirmedSent, 0n);
  }));

  it('a balance sums its mempool txs exactly past 2^63 base units, a tx paying and spending once in the count', () => withDb(harness, async (db) => {
    const net = db.store.network('DOGE');
    const whale = p2pkh(99);
    const big = 9_000_000_000_000_000_000n; // < 2^63: one output can hold it, two cannot be summed in 64 bits
    const chain = new ChainBuilder();
    const coinbases = [chain.add(p2pkh(1), big), chain.add(p2pkh(2), big), chain.add(whale, big)];
    await net.connectBlocks(coinbases);
    const paid = coinbases.slice(0, 2).map((b) => spend([{ txid: b.block.txs[0]!.txid, vout: 0 }], [{ script: whale, value: big - 1_000n }]));
    // Spends the whale's confirmed coin and pays part of it back: sent and received by one tx.
    const both = spend([{ txid: coinbases[2]!.block.txs[0]!.txid, vout: 0 }], [{ script: whale, value: 5n }, { script: p2pkh(3), value: big - 2_000n }]);
    await net.addMempoolTxs([...paid, both].map((tx) => ({ tx, seenAt: 1 })));
    const t = await net.getAddressTotals(whale);
    assert.equal(t.unconfirmedReceived, 2n * (big - 1_000n) + 5n);
    assert.ok(t.unconfirmedReceived > 2n ** 63n);
    assert.equal(t.unconfirmedSent, big);
    assert.equal(t.unconfirmedBalance, big - 2_000n + 5n);
    assert.equal(t.unconfirmedTxCount, 3);
    assert.equal(t.confirmedBalance, big);
    const none = await net.getAddressTotals(p2pkh(4));
    assert.deepEqual([none.unconfirmedReceived, none.unconfirmedSent, none.unconfirmedTxCount], [0n, 0n, 0]);
    // Without the count (v2 balance, received, spent): the same sums, the count not made (NaN, never a wrong number).
    const uncounted = await net.getAddressTotals(whale, { mempoolTxCount: false });
    assert.deepEqual([uncounted.unconfirmedReceived, uncounted.unconfirmedSent, uncounted.confirmedBalance], [t.unconfirmedReceived, t.unconfirmedSent, t.confirmedBalance]);
    assert.ok(Number.isNaN(uncounted.unconfirmedTxCount));
  }));

  it('the live mempool\'s count and sums (get_info, samples) stay those of its rows through every kind of write', () => withDb(harness, async (db) => {
    const net = db.store.network('DOGETEST');
    const agree = async (label: string): Promise<void> => {
      const tables = await db.dump();
      const live = tables['mempool_txs_dogetest']!.filter((r) => r['removed'] === '0');
      const sum = (f: (r: Record<string, string | null>) => number): number => live.reduce((a, r) => a + f(r), 0);
      const info = await net.getMempoolInfo();
      const expected = { count: live.length, bytes: sum((r) => Number(r['size'])), vbytes: sum((r) => Math.ceil(Number(r['weight']) / 4)) };
      assert.deepEqual(info, expected, label);
      assert.equal(tables['mempool_stats_dogetest']![0]!['fees'], String(sum((r) => Number(r['fee']))), `${label}: fees`);
    };
    const chain = new ChainBuilder();
    const coins = [chain.add(p2pkh(1), 100n), chain.add(p2pkh(1), 100n), chain.add(p2pkh(1), 100n)].map((b) => ({ txid: b.block.txs[0]!.txid, vout: 0 }));
    await net.connectBlocks(chain.blocks);
    await agree('empty');
    const first = spend([coins[0]!], [{ script: p2pkh(2), value: 90n }]);
    const second = spend([coins[0]!], [{ script: p2pkh(3), value: 80n }]);
    const child = spend([{ txid: second.txid, vout: 0 }], [{ script: p2pkh(4), value: 70n }]);
    const other = spend([coins[1]!], [{ script: p2pkh(5), value: 95n }]);
    const third = spend([coins[2]!], [{ script: p2pkh(6), value: 97n }]);
    await net.addMempoolTxs([first, second, child, other, third].map((tx, i) => ({ tx, seenAt: 10 + i })));
    await agree('added, with a double spend among them');
    await net.removeMempoolTxs([second.txid], 'replaced');
    await agree('replaced with its child');
    await net.addMempoolTxs([{ tx: second, seenAt: 20 }]);
    await agree('a removed tx offered again');
    await net.removeMempoolTxs([third.txid], 'evicted');
    await agree('evicted');
    const winner = spend([coins[0]!], [{ script: p2pkh(7), value: 99n }]);
    const b3 = chain.add(p2pkh(9), 50n, [winner, other]);
    await net.connectBlocks([b3]);
    await agree('a block confirming one and conflicting with others');
    await net.disconnectTip(b3.block.header.hash);
    await net.addMempoolTxs([winner, other].map((tx) => ({ tx, seenAt: 30 })));
    await agree('disconnected and offered back');
    const late = spend([coins[1]!], [{ script: p2pkh(8), value: 1n }]);
    await net.addMempoolTxs([{ tx: late, seenAt: 40 }]);
    await agree('a tx stored as removed from the start');
    await net.pruneRemovedMempool(Math.floor(Date.now() / 1000) + 5, 100);
    await agree('removed txs pruned');
  }));

  it('records double spends between mempool txs, against blocks and against confirmed spends', () => withDb(harness, async (db) => {
    const net = db.store.network('DOGETEST');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const b0 = chain.add(alice, 100n);
    const b1 = chain.add(alice, 100n);
    await net.connectBlocks([b0, b1]);
    const coin0 = { txid: b0.block.txs[0]!.txid, vout: 0 };
    const first = spend([coin0], [{ script: p2pkh(2), value: 90n }]);
    const second = spend([coin0], [{ script: p2pkh(3), value: 80n }]);
    const grandchild = spend([{ txid: second.txid, vout: 0 }], [{ script: p2pkh(4), value: 70n }]);
    await net.addMempoolTxs([{ tx: first, seenAt: 10 }]);
    const [r2] = await net.addMempoolTxs([{ tx: second, seenAt: 11 }, { tx: grandchild, seenAt: 12 }]);
    assert.equal(r2!.doubleSpent, true);
    assert.deepEqual(r2!.conflictsWith, [first.txid]);
    assert.equal((await net.getTransaction(first.txid))?.doubleSpent, true);
    assert.equal((await net.getTransaction(second.txid))?.doubleSpent, true);
    // A block confirms a third spend of the same coin: all mempool spenders and their descendants are removed.
    const winner = spend([coin0], [{ script: p2pkh(5), value: 99n }]);
    const [summary] = await net.connectBlocks([chain.add(p2pkh(9), 50n, [winner])]);
    assert.deepEqual([...summary!.conflicted].sort(), [first.txid, second.txid, grandchild.txid].sort());
    assert.deepEqual(await net.getMempoolTxids(), []);
    const lost = await net.getTransaction(second.txid);
    assert.equal(lost?.status, 'removed');
    assert.equal(lost?.doubleSpent, true);
    assert.equal((await net.getAddressTotals(p2pkh(3))).unconfirmedReceived, 0n);
    // A tx spending an already confirmed-spent coin is recorded as a removed double spend.
    const late = spend([coin0], [{ script: p2pkh(6), value: 1n }]);
    const [r3] = await net.addMempoolTxs([{ tx: late, seenAt: 20 }]);
    assert.equal(r3!.status, 'added');
    assert.equal(r3!.doubleSpent, true);
    assert.deepEqual(r3!.conflictsWith, [winner.txid]);
    assert.equal((await net.getTransaction(late.txid))?.status, 'removed');
    assert.equal((await net.getMempoolInfo()).count, 0);
    // Replacement keeps the replaced tx queryable as removed.
    const rbf = spend([{ txid: b1.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(7), value: 95n }]);
    await net.addMempoolTxs([{ tx: rbf, seenAt: 30 }]);
    assert.deepEqual(await net.removeMempoolTxs([rbf.txid], 'replaced'), [rbf.txid]);
    assert.equal((await net.getTransaction(rbf.txid))?.status, 'removed');
    // A removed tx can be offered again (e.g. after a reorg) and becomes live.
    assert.equal((await net.addMempoolTxs([{ tx: rbf, seenAt: 31 }]))[0]!.status, 'added');
    assert.equal((await net.getTransaction(rbf.txid))?.status, 'mempool');
  }));

  it('prunes removed txs once their removal is older than the cutoff, never live or confirmed ones', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const chain = new ChainBuilder();
    const b0 = chain.add(p2pkh(1), 100n);
    const b1 = chain.add(p2pkh(1), 100n);
    const b2 = chain.add(p2pkh(1), 100n);
    await net.connectBlocks([b0, b1, b2]);
    const coin = (b: typeof b0): { txid: string; vout: number } => ({ txid: b.block.txs[0]!.txid, vout: 0 });
    const replaced = spend([coin(b0)], [{ script: p2pkh(2), value: 90n }]);
    const conflicted = spend([coin(b1)], [{ script: p2pkh(3), value: 90n }]);
    const live = spend([coin(b2)], [{ script: p2pkh(4), value: 90n }]);
    await net.addMempoolTxs([{ tx: replaced, seenAt: 10 }, { tx: conflicted, seenAt: 10 }, { tx: live, seenAt: 10 }]);
    await net.removeMempoolTxs([replaced.txid], 'replaced');
    const winner = spend([coin(b1)], [{ script: p2pkh(5), value: 95n }]);
    await net.connectBlocks([chain.add(p2pkh(9), 50n, [winner])]);
    // Arrives spending a coin a block already spent: stored removed from the start.
    const late = spend([coin(b1)], [{ script: p2pkh(6), value: 1n }]);
    await net.addMempoolTxs([{ tx: late, seenAt: 11 }]);
    const removed = [replaced.txid, conflicted.txid, late.txid];
    for (const txid of removed) assert.equal((await net.getTransaction(txid))?.status, 'removed');
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await net.pruneRemovedMempool(now - 3600, 100), 0, 'removed just now: kept');
    for (const txid of removed) assert.equal((await net.getTransaction(txid))?.status, 'removed');
    assert.equal(await net.pruneRemovedMempool(now + 5, 2), 2, 'at most limit');
    assert.equal(await net.pruneRemovedMempool(now + 5, 2), 1, 'the rest');
    for (const txid of removed) assert.equal(await net.getTransaction(txid), null, `${txid} pruned`);
    assert.equal((await net.getTransaction(live.txid))?.status, 'mempool');
    assert.equal((await net.getTransaction(winner.txid))?.status, 'confirmed');
    assert.deepEqual(await net.getMempoolTxids(), [live.txid]);
    assert.equal((await net.getAddressTotals(p2pkh(4))).unconfirmedReceived, 90n);
    // A pruned tx offered again is simply new; a removed tx offered again is live and not prunable.
    assert.equal((await net.addMempoolTxs([{ tx: replaced, seenAt: 20 }]))[0]!.status, 'added');
    await net.removeMempoolTxs([replaced.txid], 'replaced');
    assert.equal((await net.addMempoolTxs([{ tx: replaced, seenAt: 21 }]))[0]!.status, 'added');
    assert.equal(await net.pruneRemovedMempool(now + 5, 100), 0);
    assert.equal((await net.getTransaction(replaced.txid))?.status, 'mempool');
  }));

  it('disconnected block txs can be offered back to the mempool', () => withDb(harness, async (db) => {
    const net = db.store.network('BTCTEST');
    const chain = new ChainBuilder();
    const b0 = chain.add(p2pkh(1), 100n);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(2), value: 90n }]);
    const b1 = chain.add(p2pkh(1), 100n, [pay]);
    await net.connectBlocks(chain.blocks);
    await net.disconnectTip(b1.block.header.hash);
    const [r] = await net.addMempoolTxs([{ tx: pay, seenAt: 50 }]);
    assert.equal(r!.status, 'added');
    assert.equal((await net.getTransaction(pay.txid))?.status, 'mempool');
    assert.equal((await net.getAddressTotals(p2pkh(2))).unconfirmedReceived, 90n);
    assert.equal((await net.getAddressTotals(p2pkh(1))).confirmedBalance, 100n);
  }));

  it('a batch of blocks reports per block what each tx spent and which mempool txs left, each once', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const coins = [chain.add(alice, 50n), chain.add(alice, 50n), chain.add(alice, 50n)].map((b) => ({ txid: b.block.txs[0]!.txid, vout: 0 }));
    await net.connectBlocks(chain.blocks);
    const a = spend([coins[0]!], [{ script: p2pkh(2), value: 49n }]);
    const b = spend([coins[1]!], [{ script: p2pkh(3), value: 49n }]);
    const loser = spend([coins[2]!], [{ script: p2pkh(4), value: 49n }]);
    await net.addMempoolTxs([a, b, loser].map((tx) => ({ tx, seenAt: 10 })));
    const winner = spend([coins[2]!], [{ script: p2pkh(5), value: 48n }]);
    const b3 = chain.add(p2pkh(6), 51n, [a]);
    const b4 = chain.add(p2pkh(6), 53n, [b, winner]);
    const [s3, s4] = await net.connectBlocks([b3, b4]);
    assert.deepEqual(s3!.confirmedFromMempool, [a.txid]);
    assert.deepEqual(s4!.confirmedFromMempool, [b.txid]);
    assert.deepEqual(s3!.conflicted, []);
    assert.deepEqual(s4!.conflicted, [loser.txid]);
    // What the writer resolved is what a read of the stored tx says it spent.
    const hex = (p: { txid: string; vout: number; value: bigint; script: Uint8Array } | null): unknown =>
      p && { txid: p.txid, vout: p.vout, value: p.value, script: Buffer.from(p.script).toString('hex') };
    assert.deepEqual(s4!.prevouts.get(winner.txid)?.map(hex), [{ ...coins[2]!, value: 50n, script: Buffer.from(alice).toString('hex') }]);
    for (const [summary, block] of [[s3!, b3], [s4!, b4]] as const) {
      assert.deepEqual([...summary.prevouts.keys()], block.block.txs.map((t) => t.txid));
      for (const tx of block.block.txs) {
        assert.deepEqual(summary.prevouts.get(tx.txid)?.map(hex), (await net.getTransaction(tx.txid))!.prevouts.map(hex));
      }
    }
    assert.deepEqual(s3!.prevouts.get(b3.block.txs[0]!.txid), [null]);
  }));
}

const T = 1_700_000_000;

/** Mempool samples sum exactly the live mempool txs (what get_info counts), read back by time, prune by age. */

export function mempoolSampleTests(harness: StoreHarness): void {
  it('a sample sums the live mempool (count, bytes, vbytes, fees) as getMempoolInfo does; one per second; per network', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const samples = db.store.mempoolSamples();
    assert.deepEqual(await samples.sample('LTC', T), { time: T, txCount: 0, bytes: 0, vbytes: 0, fees: 0n }, 'an empty mempool is a sample too');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const b0 = chain.add(alice, 100_000n);
    await net.connectBlocks([b0]);
    const parent = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(2), value: 60_000n }, { script: alice, value: 39_000n }]);
    const child = spend([{ txid: parent.txid, vout: 0 }], [{ script: p2pkh(3), value: 59_500n }]);
    await net.addMempoolTxs([{ tx: parent, seenAt: T }, { tx: child, seenAt: T }]);
    const info = await net.getMempoolInfo();
    const taken = await samples.sample('LTC', T + 60);
    assert.deepEqual(taken, { time: T + 60, txCount: 2, bytes: info.bytes, vbytes: info.vbytes, fees: 1_000n + 500n });
    assert.equal(await samples.sample('LTC', T + 60), null, 'a second sample in the same second is ignored');
    // A removed (replaced) tx is not live: the next sample leaves it out, as get_info does.
    await net.removeMempoolTxs([child.txid], 'replaced');
    assert.equal((await samples.sample('LTC', T + 120))?.txCount, (await net.getMempoolInfo()).count);
    assert.equal((await samples.sample('LTC', T + 120))?.fees ?? 1_000n, 1_000n);
    assert.deepEqual((await samples.read('LTC', T + 60, T + 120)).map((s) => [s.time, s.txCount, s.fees]), [[T + 60, 2, 1_500n], [T + 120, 1, 1_000n]]);
    assert.deepEqual(await samples.read('DOGE', 0, T * 2), [], 'samples are per network');
    assert.equal((await samples.sample('DOGE', T + 60))?.txCount, 0);
  }));

  it('reads a time window oldest first and prunes by age', () => withDb(harness, async (db) => {
    const samples = db.store.mempoolSamples();
    for (let i = 0; i < 10; i++) await samples.sample('LTCTEST', T + i * 60);
    await samples.sample('BTC', T);
    assert.deepEqual((await samples.read('LTCTEST', T + 120, T + 300)).map((s) => s.time), [T + 120, T + 180, T + 240, T + 300]);
    assert.equal(await samples.prune('LTCTEST', T + 300), 5);
    assert.deepEqual((await samples.read('LTCTEST', 0, T * 2)).map((s) => s.time), [T + 300, T + 360, T + 420, T + 480, T + 540]);
    assert.equal((await samples.read('BTC', 0, T * 2)).length, 1, 'another network keeps its samples');
    assert.equal(await samples.prune('LTCTEST', T + 300), 0);
  }));
}
