/**
 * Conformance: scripts whose keys collide (a narrowed key space makes every script collide with others) keep exact,
 * separate totals, histories and unspent outputs, through connect, mempool, disconnect and reconnect.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import type { StoreHarness, TestDatabase } from '../harness.js';

/** The scripts table's keys, as numbers. */
async function storedKeys(db: TestDatabase, table: string): Promise<number[]> {
  return ((await db.dump())[table] ?? []).map((row) => Number(row['key']));
}

export function scriptKeyTests(harness: StoreHarness): void {
  it('a new store keys scripts in 47 bits (6-byte integers in SQLite); one made before meta.script_key_bits keeps 53', async () => {
    const scripts = Array.from({ length: 40 }, (_, i) => p2pkh(3000 + i));
    const chain = new ChainBuilder();
    for (const script of scripts) chain.add(script, 10n);
    for (const legacy of [false, true]) {
      const db = await harness.create();
      try {
        await db.store.migrate();
        // A store of the version before has no row: its keys were, and stay, 53-bit.
        if (legacy) await db.exec("DELETE FROM meta WHERE key = 'script_key_bits'");
        await db.store.network('LTC').connectBlocks(chain.blocks);
        const keys = await storedKeys(db, 'scripts_ltc');
        assert.equal(keys.length, 40);
        const wide = keys.filter((k) => k >= 2 ** 47).length;
        if (legacy) assert.ok(wide > 30, `53-bit keys: ${wide} of 40 at or above 2^47`);
        else assert.equal(wide, 0, '47-bit keys');
        // Reopened, the store finds the scripts under the same keys (it reads the width the store records).
        const reopened = await db.reopen();
        for (const script of scripts) assert.equal((await reopened.network('LTC').getAddressTotals(script)).confirmedBalance, 10n);
      } finally {
        await db.dispose();
      }
    }
  });

  it('scripts with colliding keys stay apart (3-bit key space: 24 scripts share 8 base keys)', async () => {
    const db = await harness.create({ scriptKeyBits: 3 });
    try {
      await db.store.migrate();
      const net = db.store.network('DOGETEST');
      const scripts = Array.from({ length: 24 }, (_, i) => p2pkh(1000 + i));
      const chain = new ChainBuilder();
      // Each script i is paid i + 1 by its own coinbase; then script i spends half of it to script (i + 1) % 24.
      const coinbases = scripts.map((s, i) => chain.add(s, BigInt(i + 1) * 100n).block.txs[0]!.txid);
      await net.connectBlocks(chain.blocks);
      const pays = coinbases.map((txid, i) => spend([{ txid, vout: 0 }], [
        { script: scripts[(i + 1) % 24]!, value: BigInt(i + 1) * 50n }, { script: scripts[i]!, value: BigInt(i + 1) * 50n - 1n },
      ]));
      const block = chain.add(p2pkh(1), 100n, pays.slice(0, 12));
      await net.connectBlocks([block]);
      // The rest arrive through the mempool first, with a new colliding script.
      const fresh = p2pkh(2000);
      const late = [...pays.slice(12), spend([{ txid: block.block.txs[0]!.txid, vout: 0 }], [{ script: fresh, value: 99n }])];
      const added = await net.addMempoolTxs(late.map((tx) => ({ tx, seenAt: 5 })));
      assert.ok(added.every((a) => a.status === 'added'));
      assert.equal((await net.getAddressTotals(fresh)).unconfirmedReceived, 99n);

      // Script i holds its coinbase, or once its pay confirmed the change (half minus the fee of 1); plus what the
      // previous script paid it once that pay confirmed. Pays 0..n-1 are confirmed.
      const expected = (i: number, confirmed: number): bigint => {
        const prev = (i + 23) % 24;
        const own = i < confirmed ? BigInt(i + 1) * 50n - 1n : BigInt(i + 1) * 100n;
        return own + (prev < confirmed ? BigInt(prev + 1) * 50n : 0n);
      };
      for (let i = 0; i < 24; i++) assert.equal((await net.getAddressTotals(scripts[i]!)).confirmedBalance, expected(i, 12), `script ${i}`);
      const tip = chain.add(p2pkh(1), 100n, late);
      await net.connectBlocks([tip]);
      for (let i = 0; i < 24; i++) {
        const totals = await net.getAddressTotals(scripts[i]!);
        assert.equal(totals.confirmedBalance, expected(i, 24), `script ${i}`);
        assert.equal(totals.unconfirmedBalance, 0n);
        const unspent = await net.getUnspent(scripts[i]!, { limit: 10, includeMempool: true });
        assert.deepEqual(unspent.map((u) => u.value).sort(), [BigInt(i + 1) * 50n - 1n, BigInt(((i + 23) % 24) + 1) * 50n].sort(), `unspent ${i}`);
        const history = await net.getAddressHistory(scripts[i]!, { limit: 10, direction: 'asc' });
        assert.equal(history.length, 3, `history ${i}: coinbase, own spend, received`);
      }
      assert.equal((await net.getAddressTotals(fresh)).confirmedReceived, 99n);
      await net.disconnectTip(tip.block.header.hash);
      for (let i = 0; i < 24; i++) assert.equal((await net.getAddressTotals(scripts[i]!)).confirmedBalance, expected(i, 12), `after undo ${i}`);
      await net.connectBlocks([tip]);
      for (let i = 0; i < 24; i++) assert.equal((await net.getAddressTotals(scripts[i]!)).confirmedBalance, expected(i, 24), `after redo ${i}`);
    } finally {
      await db.dispose();
    }
  });
}
