/** Conformance: schema version, connect/disconnect, orphans, atomicity and exact big sums. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StoreError } from '../../core/domain/errors.js';
import { SCHEMA_VERSION } from '../common/schema/schema-version.js';
import { ChainBuilder, p2pkh, spend } from './block-builder.js';
import type { StoreHarness, TestDatabase } from './harness.js';

export async function withDb(harness: StoreHarness, fn: (db: TestDatabase) => Promise<void>): Promise<void> {
  await withDbAt(harness, SCHEMA_VERSION, fn);
}

/**
 * A fresh database migrated only up to `version`: upgrade tests write that version's rows into it, then reopen and
 * migrate() the rest, running each later migration once, as an upgraded installation does.
 */
export async function withDbAt(harness: StoreHarness, version: number, fn: (db: TestDatabase) => Promise<void>): Promise<void> {
  const db = await harness.create();
  try {
    await db.store.migrate(version);
    assert.equal(await db.store.schemaVersion(), version);
    await fn(db);
  } finally {
    await db.dispose();
  }
}

/** State that must be identical after connect + disconnect: orphan rows and emptied scripts (indexed by hash) are expected leftovers. */
export async function liveDigest(db: TestDatabase): Promise<string> {
  const tables = await db.dump();
  // Rows of orphaned txs stay (ids are never reused); their orphan columns say what they spent.
  const orphanIds = new Set(Object.entries(tables).filter(([t]) => t.startsWith('txs_'))
    .flatMap(([, rows]) => rows.filter((r) => r.orphan_prevouts !== null).map((r) => r.id)));
  // Emptied script rows stay (keys are never reused), and with them their entries in SQLite's scripthash table.
  const emptied = new Set(Object.entries(tables).filter(([t]) => t.startsWith('scripts_'))
    .flatMap(([t, rows]) => rows.filter((r) => r.tx_count === '0').map((r) => `${t.slice('scripts_'.length)}:${r.key}`)));
  const keep = (table: string, row: Record<string, string | null>): boolean => {
    if (table.startsWith('blocks_')) return row.is_orphan === '0';
    if (table.startsWith('txs_')) return row.orphan_prevouts === null;
    if (table.startsWith('tx_raws_')) return !orphanIds.has(row.id ?? null);
    if (table.startsWith('scripts_')) return row.tx_count !== '0';
    if (table.startsWith('script_hashes_')) return !emptied.has(`${table.slice('script_hashes_'.length)}:${row.key}`);
    return true;
  };
  // next_tx only grows: a disconnected block's ids are not given to another block.
  const live = (table: string, row: Record<string, string | null>): Record<string, string | null> =>
    table === 'tips' ? { ...row, next_tx: null } : row;
  return JSON.stringify(Object.entries(tables).sort().map(([t, rows]) => [t, rows.filter((r) => keep(t, r)).map((r) => live(t, r))]));
}

export function chainTests(harness: StoreHarness): void {
  it('migrates idempotently and records the schema version', () => withDb(harness, async (db) => {
    await db.store.migrate();
    assert.equal(await db.store.schemaVersion(), SCHEMA_VERSION);
  }));

  it('refuses a database with a newer schema version', () => withDb(harness, async (db) => {
    await db.setSchemaVersion(SCHEMA_VERSION + 1);
    const reopened = await db.reopen();
    await assert.rejects(reopened.migrate(), (e: unknown) => e instanceof StoreError && /newer than this Outpoint supports/.test(e.message));
  }));

  it('connects blocks, exposes block and tx records', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const bob = p2pkh(2);
    const b0 = chain.add(alice, 50n);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: bob, value: 30n }, { script: alice, value: 15n }]);
    const b1 = chain.add(bob, 55n, [pay]);
    const summaries = await net.connectBlocks(chain.blocks);
    assert.equal(summaries.length, 2);
    assert.equal(summaries[1]!.fees, 5n);
    assert.equal(summaries[1]!.valueOut, 100n);
    assert.deepEqual(await net.getTip(), { height: 1, hash: b1.block.header.hash });
    const r0 = await net.getBlockByHeight(0);
    assert.equal(r0?.nextHash, b1.block.header.hash);
    assert.equal(r0?.isOrphan, false);
    const r1 = await net.getBlockByHash(b1.block.header.hash);
    assert.deepEqual(r1?.txids, b1.block.txs.map((t) => t.txid));
    assert.equal(r1?.nextHash, null);
    assert.equal(r1?.reward, 55n);
    const tx = await net.getTransaction(pay.txid);
    assert.equal(tx?.status, 'confirmed');
    assert.equal(tx?.fee, 5n);
    assert.equal(tx?.height, 1);
    assert.equal(tx?.position, 1);
    assert.deepEqual(Buffer.from(tx!.raw!), Buffer.from(pay.raw));
    assert.equal(tx?.prevouts[0]?.value, 50n);
    assert.deepEqual(Buffer.from(tx!.prevouts[0]!.script), Buffer.from(alice));
    const outs = await net.getOutputs(b0.block.txs[0]!.txid);
    assert.deepEqual(outs?.[0]?.spentBy, { txid: pay.txid, vin: 0, confirmed: true });
    assert.equal(await net.getMainChainHash(1), b1.block.header.hash);
    assert.equal((await db.store.network('LTC').getTip()), null, 'networks are isolated');
  }));

  it('disconnect restores identical tables; the orphan stays queryable', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const b0 = chain.add(alice, 50n);
    await net.connectBlocks([b0]);
    const before = await liveDigest(db);
    const pay = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(3), value: 49n }]);
    const b1 = chain.add(p2pkh(4), 51n, [pay]);
    await net.connectBlocks([b1]);
    const afterConnect = await liveDigest(db);
    const undone = await net.disconnectTip(b1.block.header.hash);
    assert.deepEqual(undone.txs.map((t) => t.txid), b1.block.txs.map((t) => t.txid));
    assert.equal(undone.txs[0]!.isCoinbase, true);
    assert.equal(await liveDigest(db), before);
    const orphan = await net.getBlockByHash(b1.block.header.hash);
    assert.equal(orphan?.isOrphan, true);
    assert.equal(orphan?.nextHash, null);
    assert.equal((await net.getTransaction(pay.txid))?.status, 'orphaned');
    assert.equal((await net.getTransaction(pay.txid))?.blockHash, b1.block.header.hash);
    assert.equal((await net.getAddressTotals(alice)).confirmedBalance, 50n);
    await assert.rejects(net.disconnectTip(b1.block.header.hash), StoreError);
    // Reconnecting the same block reproduces the connected state exactly.
    await net.connectBlocks([b1]);
    assert.equal(await liveDigest(db), afterConnect);
    // A competing fork replaces it and the old block is an orphan again.
    await net.disconnectTip(b1.block.header.hash);
    const fork = chain.forkAt(1);
    const f1 = fork.add(p2pkh(5), 50n);
    const f2 = fork.add(p2pkh(5), 50n);
    await net.connectBlocks([f1, f2]);
    assert.equal((await net.getBlockByHeight(1))?.hash, f1.block.header.hash);
    assert.equal((await net.getBlockByHash(b1.block.header.hash))?.isOrphan, true);
    // Headers: the main chain only, ascending, each what the whole read says less its txids and successor.
    const headers = await net.getBlockHeaders(0, 5);
    assert.deepEqual(headers.map((h) => h.hash), [b0, f1, f2].map((b) => b.block.header.hash));
    for (const header of headers) {
      const { txids: _txids, nextHash: _next, ...whole } = (await net.getBlockByHeight(header.height))!;
      assert.deepEqual(header, whole);
    }
    assert.deepEqual(await net.getBlockHeaders(3, 9), []);
  }));

  it('a batch with a missing prevout changes nothing and names the outpoint', () => withDb(harness, async (db) => {
    const net = db.store.network('BTC');
    const chain = new ChainBuilder();
    await net.connectBlocks([chain.add(p2pkh(1), 50n)]);
    const before = JSON.stringify(await db.dump());
    const ghost = 'ab'.repeat(32);
    const good = chain.add(p2pkh(2), 50n);
    const bad = chain.add(p2pkh(3), 50n, [spend([{ txid: ghost, vout: 3 }], [{ script: p2pkh(4), value: 1n }])]);
    await assert.rejects(net.connectBlocks([good, bad]), (e: unknown) => e instanceof StoreError && e.message.includes(`${ghost}:3`));
    assert.equal(JSON.stringify(await db.dump()), before);
    assert.equal((await net.getTip())?.height, 0);
    await assert.rejects(net.connectBlocks([bad]), StoreError, 'must extend the tip');
  }));

  it('sums beyond 2^63 base units stay exact (Dogecoin scale)', () => withDb(harness, async (db) => {
    const net = db.store.network('DOGE');
    const whale = p2pkh(99);
    const big = 9_000_000_000_000_000_000n; // < 2^63, like a single huge output
    const chain = new ChainBuilder();
    const coinbases = [];
    for (let i = 0; i < 4; i++) coinbases.push(chain.add(whale, big).block.txs[0]!.txid);
    const spends = coinbases.slice(0, 3).map((txid) => spend([{ txid, vout: 0 }], [{ script: whale, value: big - 1000n }]));
    chain.add(whale, big, spends);
    await net.connectBlocks(chain.blocks);
    const t = await net.getAddressTotals(whale);
    const received = 5n * big + 3n * (big - 1000n);
    assert.ok(received > 2n ** 64n);
    assert.equal(t.confirmedReceived, received);
    assert.equal(t.confirmedSent, 3n * big);
    assert.equal(t.confirmedBalance, received - 3n * big);
    const last = await net.getBlockByHeight(4);
    assert.equal(last?.valueOut, big + 3n * (big - 1000n));
    assert.equal(last?.fees, 3000n);
    const minConf = await net.getAddressTotals(whale, { minConfirmations: 2 });
    assert.equal(minConf.confirmedReceived, 4n * big);
  }));
}
