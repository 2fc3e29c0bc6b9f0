/**
 * Conformance: the scripthash index (docs/schema.md, "Scripthash index") and the Electrum reads over it. Lookups find
 * every script the index stores, whichever path wrote it (blocks, the mempool, an initial load); a store upgraded from
 * before the index answers "building" until its background build is done, then exactly; histories come in chain order
 * with heights, mempool txs with their fee and whether they spend another mempool tx's output.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { ScriptHashIndexBuildingError } from '../../../core/domain/errors.js';
import type { NetworkStore } from '../../../core/store/network-store.js';
import { chainTables, scriptHashBuildKey } from '../../common/schema/chain-tables.js';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import { bulkLoad } from './conformance-bulk.js';
import { withDb, withDbAt } from '../conformance-chain.js';
import type { StoreHarness, TestDatabase } from '../harness.js';

const sha = (script: Uint8Array): Buffer => createHash('sha256').update(script).digest();
const hex = (bytes: Uint8Array | null): string | null => (bytes ? Buffer.from(bytes).toString('hex') : null);

/** Ten blocks paying ten scripts, a spend between them, then a mempool chain (parent, child) paying a new script; the same in each store given. */
async function scenario(...nets: NetworkStore[]) {
  const chain = new ChainBuilder();
  const scripts = Array.from({ length: 10 }, (_, i) => p2pkh(300 + i));
  for (const s of scripts) chain.add(s, 50n);
  const paid = spend([{ txid: chain.blocks[0]!.block.txs[0]!.txid, vout: 0 }], [{ script: scripts[1]!, value: 20n }, { script: scripts[0]!, value: 29n }]);
  chain.add(scripts[2]!, 50n, [paid]);
  for (const net of nets) await net.connectBlocks(chain.blocks);
  const fresh = p2pkh(399);
  const parent = spend([{ txid: chain.blocks[3]!.block.txs[0]!.txid, vout: 0 }], [{ script: fresh, value: 40n }, { script: scripts[1]!, value: 9n }]);
  const child = spend([{ txid: parent.txid, vout: 0 }], [{ script: scripts[1]!, value: 38n }]);
  for (const net of nets) await net.addMempoolTxs([{ tx: parent, seenAt: 100 }, { tx: child, seenAt: 101 }]);
  return { chain, scripts, fresh, paid: paid.txid, parentTx: parent, parent: parent.txid, child: child.txid };
}

/** The 80 header bytes from a block's fields, as a node serializes them. */
function header(b: { version: number; prevHash: string; merkleRoot: string; time: number; bits: number; nonce: number }): string {
  const out = Buffer.alloc(80);
  out.writeInt32LE(b.version, 0);
  Buffer.from(b.prevHash, 'hex').reverse().copy(out, 4);
  Buffer.from(b.merkleRoot, 'hex').reverse().copy(out, 36);
  out.writeUInt32LE(b.time, 68);
  out.writeUInt32LE(b.bits, 72);
  out.writeUInt32LE(b.nonce, 76);
  return out.toString('hex');
}

/** What an upgraded store holds: the index of the scripts stored so far gone, its build pending (script-hash-migration.ts). */
async function forgetIndex(db: TestDatabase, id: 'LTC' | 'BTC'): Promise<void> {
  const t = chainTables(id);
  if (db.engine === 'sqlite') await db.exec(`DELETE FROM ${t.scriptHashes}`);
  else await db.exec(`DROP INDEX ${t.scripts}_by_hash`);
  await db.exec(`INSERT INTO meta (key, value) VALUES ('${scriptHashBuildKey(id)}', '')`);
}

export function scriptHashTests(harness: StoreHarness): void {
  it('finds every stored script by its sha256, from blocks and from the mempool; nothing else', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const { scripts, fresh } = await scenario(net);
    assert.deepEqual(await net.scriptHashes.indexState(), { ready: true, progress: 1 });
    for (const s of [...scripts, fresh]) assert.equal(hex(await net.scriptHashes.scriptOf(sha(s))), hex(s));
    assert.equal(await net.scriptHashes.scriptOf(sha(p2pkh(398))), null);
    // Another network's scripts are not this one's.
    assert.equal(await db.store.network('BTC').scriptHashes.scriptOf(sha(scripts[0]!)), null);
  }));

  it('answers a script history in chain order with heights, then mempool txs with fee and unconfirmed parents', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const { chain, scripts, fresh, paid, parentTx, parent, child } = await scenario(net);
    const history = await net.scriptHashes.history(scripts[1]!, 100);
    assert.deepEqual(history?.confirmed, [{ txid: chain.blocks[1]!.block.txs[0]!.txid, height: 1 }, { txid: paid, height: 10 }]);
    const pool = [...history!.mempool].sort((a, b) => a.txid.localeCompare(b.txid));
    assert.deepEqual(pool, [{ txid: parent, fee: 1n, unconfirmedParent: false }, { txid: child, fee: 2n, unconfirmedParent: true }]
      .sort((a, b) => a.txid.localeCompare(b.txid)));
    assert.deepEqual((await net.scriptHashes.history(fresh, 100))?.confirmed, []);
    assert.equal((await net.scriptHashes.history(fresh, 100))?.mempool.length, 2, 'paid by the parent, spent by the child');
    // Unspent: confirmed in chain order, then mempool outputs; none a mempool tx spends (fresh's one is the child's input).
    const utxos = (await net.scriptHashes.unspent(scripts[1]!, 100))!.outputs.map((u) => [u.txid, u.vout, u.value, u.height, u.unconfirmedParent]);
    assert.deepEqual(utxos.slice(0, 2), [[chain.blocks[1]!.block.txs[0]!.txid, 0, 50n, 1, false], [paid, 0, 20n, 10, false]]);
    assert.deepEqual(utxos.slice(2).sort(), [[parent, 1, 9n, null, false], [child, 0, 38n, null, true]].sort());
    assert.deepEqual(await net.scriptHashes.unspent(fresh, 100), { outputs: [], pending: true }, 'its one output is spent by the child');
    assert.equal((await net.scriptHashes.unspent(scripts[0]!, 100))?.pending, false);
    assert.equal((await net.scriptHashes.balance(fresh)).pending, true);
    assert.equal((await net.scriptHashes.balance(scripts[0]!)).pending, false);
    assert.equal(await net.scriptHashes.unspent(scripts[1]!, 3), null, 'four outputs are more than three');
    assert.equal(await net.scriptHashes.history(scripts[1]!, 3), null, 'four txs are more than three');
    assert.equal((await net.scriptHashes.history(scripts[1]!, 4))?.confirmed.length, 2);
    assert.deepEqual(await net.scriptHashes.history(p2pkh(398), 10), { confirmed: [], mempool: [] });
    // One mempool tx paying a script three times is one tx: the bound counts txs, not rows.
    const thrice = p2pkh(397);
    const triple = spend([{ txid: chain.blocks[4]!.block.txs[0]!.txid, vout: 0 }], [1n, 2n, 3n].map((value) => ({ script: thrice, value })));
    await net.addMempoolTxs([{ tx: triple, seenAt: 102 }]);
    assert.deepEqual((await net.scriptHashes.history(thrice, 1))?.mempool.map((m) => m.txid), [triple.txid]);
    assert.deepEqual((await net.scriptHashes.mempool(thrice, 1))?.map((m) => m.txid), [triple.txid]);
    assert.equal(await net.scriptHashes.mempool(thrice, 0), null);
    // The parent confirms: the child's input is confirmed now.
    await net.connectBlocks([chain.add(scripts[9]!, 50n, [parentTx])]);
    const after = await net.scriptHashes.history(scripts[1]!, 100);
    assert.deepEqual(after?.confirmed.at(-1), { txid: parent, height: 11 });
    assert.deepEqual(after?.mempool, [{ txid: child, fee: 2n, unconfirmedParent: false }]);
  }));

  it('answers balances as the address totals do, and every read the same when scripts are off their first key', async () => {
    // 2-bit script keys: most of the scenario's scripts collide and sit further along their probe sequence, which the
    // one-statement reads (script-hash-plans.ts) leave to the probing path.
    const plainDb = await harness.create();
    const collidingDb = await harness.create({ scriptKeyBits: 2 });
    try {
      await plainDb.store.migrate();
      await collidingDb.store.migrate();
      const plain = plainDb.store.network('LTC');
      const colliding = collidingDb.store.network('LTC');
      const { scripts, fresh } = await scenario(plain, colliding);
      const answers = async (net: NetworkStore, s: Uint8Array): Promise<unknown> => {
        const balance = await net.scriptHashes.balance(s);
        const totals = await net.getAddressTotals(s);
        assert.deepEqual(balance, { confirmed: totals.confirmedBalance, unconfirmed: totals.unconfirmedBalance, pending: totals.unconfirmedTxCount > 0 });
        const history = (await net.scriptHashes.history(s, 100))!;
        const { outputs: utxos, pending } = (await net.scriptHashes.unspent(s, 100))!;
        assert.equal(pending, balance.pending);
        return {
          balance, confirmed: history.confirmed, pool: [...history.mempool].sort((a, b) => a.txid.localeCompare(b.txid)),
          settled: utxos.filter((u) => u.height !== null),
          pending: utxos.filter((u) => u.height === null).sort((a, b) => a.txid.localeCompare(b.txid) || a.vout - b.vout),
          cut: [await net.scriptHashes.history(s, 1), await net.scriptHashes.unspent(s, 1)],
        };
      };
      for (const s of [...scripts, fresh, p2pkh(398)]) assert.deepEqual(await answers(colliding, s), await answers(plain, s));
      const paidTwice = (await answers(plain, scripts[1]!)) as { balance: unknown; confirmed: unknown[]; pending: unknown[]; cut: unknown[] };
      assert.deepEqual([paidTwice.balance, paidTwice.confirmed.length, paidTwice.pending.length, paidTwice.cut], [{ confirmed: 70n, unconfirmed: 47n, pending: true }, 2, 2, [null, null]]);
    } finally {
      await plainDb.dispose();
      await collidingDb.dispose();
    }
  });

  it('answers heights of the chain as it is after a reorg (the kept heights follow the tip)', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const chain = new ChainBuilder();
    const alice = p2pkh(310);
    for (let h = 0; h < 3; h++) chain.add(alice, 50n);
    await net.connectBlocks(chain.blocks);
    assert.deepEqual((await net.scriptHashes.history(alice, 10))!.confirmed.map((c) => c.height), [0, 1, 2]);
    // Heights 1 and 2 replaced by a longer branch: alice is paid at heights 1, 2 and 3 of it.
    const fork = chain.forkAt(1);
    for (let h = 1; h < 4; h++) fork.add(alice, 25n);
    await net.disconnectTip(chain.blocks[2]!.block.header.hash);
    await net.disconnectTip(chain.blocks[1]!.block.header.hash);
    await net.connectBlocks(fork.blocks.slice(1));
    const after = (await net.scriptHashes.history(alice, 10))!.confirmed;
    assert.deepEqual(after.map((c) => [c.txid, c.height]), fork.blocks.map((b, h) => [b.block.txs[0]!.txid, h]));
    assert.deepEqual((await net.scriptHashes.unspent(alice, 10))!.outputs.map((u) => u.height), [0, 1, 2, 3]);
  }));

  it('serves main-chain headers and block hashes by height', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const { chain } = await scenario(net);
    const got = await net.scriptHashes.headers(2, 3);
    assert.deepEqual(got.map((h) => hex(h)), chain.blocks.slice(2, 5).map((b) => header(b.block.header)));
    assert.equal((await net.scriptHashes.headers(9, 5)).length, 2, 'fewer at the tip');
    assert.deepEqual(await net.scriptHashes.headers(50, 5), []);
    const hashes = await net.scriptHashes.blockHashes(0, 10);
    assert.deepEqual(hashes.map((h) => Buffer.from(h).reverse().toString('hex')), chain.blocks.map((b) => b.block.header.hash));
  }));

  it('an upgraded store answers "building" until its background build is done, then finds old and new scripts', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const { chain, scripts } = await scenario(net);
    await forgetIndex(db, 'LTC');
    const store = await db.reopen();
    const reopened = store.network('LTC');
    await assert.rejects(reopened.scriptHashes.scriptOf(sha(scripts[0]!)), ScriptHashIndexBuildingError);
    assert.equal((await reopened.scriptHashes.indexState()).ready, false);
    // A script stored during the build is indexed by the store's own path (SQLite's trigger, PostgreSQL's index).
    const late = p2pkh(397);
    await reopened.connectBlocks([chain.add(late, 50n)]);
    let state = await reopened.buildScriptHashIndex(4);
    let steps = 1;
    while (!state.ready) {
      assert.ok(state.progress >= 0 && state.progress < 1);
      state = await reopened.buildScriptHashIndex(4);
      steps++;
    }
    if (db.engine === 'sqlite') assert.ok(steps >= 3, `${steps} steps of 4 scripts`);
    assert.deepEqual(await reopened.buildScriptHashIndex(4), { ready: true, progress: 1 }, 'a no-op once ready');
    for (const s of [...scripts, late]) assert.equal(hex(await reopened.scriptHashes.scriptOf(sha(s))), hex(s));
  }));

  it('an initial load builds the index whole, even over a pending background build', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    await forgetIndex(db, 'BTC');
    const chain = new ChainBuilder();
    const scripts = Array.from({ length: 6 }, (_, i) => p2pkh(600 + i));
    for (const s of scripts) chain.add(s, 50n);
    await bulkLoad(net, chain.blocks, 2);
    assert.deepEqual(await net.scriptHashes.indexState(), { ready: true, progress: 1 });
    for (const s of scripts) assert.equal(hex(await net.scriptHashes.scriptOf(sha(s))), hex(s));
    // And keeps it while following.
    const next = p2pkh(606);
    await net.connectBlocks([chain.add(next, 50n)]);
    assert.equal(hex(await net.scriptHashes.scriptOf(sha(next))), hex(next));
  }));

  it('upgrading from schema version 14 leaves the stored scripts to the background build', () => withDbAt(harness, 14, async (db) => {
    const net = db.store.network('LTC');
    const { scripts } = await scenario(net);
    // Version 14 had no index: its chain tables were made without it.
    for (const id of ['LTC', 'BTC'] as const) {
      const t = chainTables(id);
      if (db.engine === 'sqlite') {
        await db.exec(`DROP TRIGGER ${t.scripts}_hash`);
        await db.exec(`DROP TABLE ${t.scriptHashes}`);
      } else {
        await db.exec(`DROP INDEX ${t.scripts}_by_hash`);
      }
    }
    const store = await db.reopen();
    await store.migrate();
    const upgraded = store.network('LTC');
    assert.equal((await upgraded.scriptHashes.indexState()).ready, false);
    assert.equal((await store.network('BTC').scriptHashes.indexState()).ready, false, 'every network of an upgraded store, even an empty one');
    assert.deepEqual(await store.network('BTC').buildScriptHashIndex(100), { ready: true, progress: 1 });
    while (!(await upgraded.buildScriptHashIndex(3)).ready);
    for (const s of scripts) assert.equal(hex(await upgraded.scriptHashes.scriptOf(sha(s))), hex(s));
  }));
}
