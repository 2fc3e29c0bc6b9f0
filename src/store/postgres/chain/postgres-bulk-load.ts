/**
 * Initial (bulk) load for PostgreSQL, the appending half (the building half is postgres-bulk-build.ts). PostgreSQL
 * tables are heaps: with every index of the network's chain tables dropped (keys included), a batch is a few binary
 * COPYs that append to them, and nothing is read back: a spend of an output from an earlier batch is copied to
 * bulk_pending_n for the build to resolve, the scripts seen to bulk_scripts_n.
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { assertExtendsTip, collectBatchNeeds } from '../../common/chain-writes/batch-needs.js';
import { blockFirstTx, buildBulkRows, type BulkRows, type RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { readBulkLoad, readTipRow, writeTip } from '../../common/schema/network-rows.js';
import { insertBlocks } from './postgres-chain-writer.js';
import { BinaryRows, copyRows } from '../connection/postgres-copy.js';
import type { PgNet } from './postgres-net.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { one } from '../connection/postgres-sql.js';

export async function beginBulkLoadTx(db: pg.ClientBase, n: PgNet, startedAt: number): Promise<void> {
  if (await runPostgres(db, readBulkLoad(n.net))) throw new StoreError(`${n.id}: a bulk load is already in progress`);
  const { tip } = await runPostgres(db, readTipRow(n.net));
  if (tip || (await one(db, `SELECT 1 FROM ${n.t.txs} LIMIT 1`))) throw new StoreError(`${n.id}: bulk load needs an empty chain index`);
  for (const index of deferredIndexes('postgres', n.id)) await db.query(index.drop);
  await db.query(`
    CREATE TABLE IF NOT EXISTS ${n.t.bulkPending} (spender BIGINT NOT NULL, vin INTEGER NOT NULL, prev_txid BYTEA NOT NULL, prev_vout INTEGER NOT NULL,
      spender_block BIGINT);
    CREATE TABLE IF NOT EXISTS ${n.t.bulkScripts} (key BIGINT NOT NULL, first_id BIGINT NOT NULL, script BYTEA NOT NULL)`);
  await db.query('INSERT INTO bulk_loads (net, step, started_at) VALUES ($1, 0, $2)', [n.net, startedAt]);
}

/** Networks whose staging table of pending spends this process has checked for the spender_block column. */
const shaped = new WeakSet<PgNet>();

export async function loadBlocksTx(db: pg.ClientBase, n: PgNet, blocks: readonly BlockToConnect[], recent: RecentKeys): Promise<ChainTip> {
  const state = await runPostgres(db, readBulkLoad(n.net));
  if (!state || state.step !== 0) throw new StoreError(`${n.id}: no bulk load is appending blocks`);
  // A batch lost in a database crash is loaded again from the tip marker: its commit need not wait for the WAL flush.
  await db.query('SET LOCAL synchronous_commit = off');
  if (!shaped.has(n)) {
    // A load begun by an older version staged pending spends without their block (the build looks those up).
    await db.query(`ALTER TABLE ${n.t.bulkPending} ADD COLUMN IF NOT EXISTS spender_block BIGINT`);
    shaped.add(n);
  }
  const { tip, nextTx } = await runPostgres(db, readTipRow(n.net));
  assertExtendsTip(blocks, tip);
  const keys = await n.keys(db);
  const rows = buildBulkRows(blocks, collectBatchNeeds(blocks), nextTx, (script) => keys.base(script), recent);
  await writeBulkRows(db, n, rows, nextTx);
  await runPostgres(db, writeTip(n.net, rows.newTip, nextTx + rows.txCount));
  return rows.newTip;
}

async function writeBulkRows(db: pg.ClientBase, n: PgNet, rows: BulkRows, firstId: number): Promise<void> {
  const { t } = n;
  // During a bulk load `fees` holds the sum of the block's inputs known so far (spends of outputs of the same batch);
  // the build adds the pending ones and subtracts the outputs (postgres-bulk-build.ts).
  const firsts = rows.blocks.map((b) => b.firstTx);
  const inputs = new Map<number, bigint>();
  const out = rows.outputs;
  for (let i = 0; i < out.id.length; i++) {
    const spender = out.spentBy[i];
    if (spender === null || spender === undefined) continue;
    const first = blockFirstTx(firsts, spender);
    inputs.set(first, (inputs.get(first) ?? 0n) + out.value[i]!);
  }
  await insertBlocks(db, t.blocks, rows.blocks, rows.blocks.map((x) => inputs.get(x.firstTx) ?? 0n), '');
  const txRows = new BinaryRows(4, 1 << 20);
  rows.txs.forEach((x, i) => txRows.row().int8(firstId + i).bytea(x.txid).int4(x.size).int4(x.weight));
  await copyRows(db, `${t.txs} (id, txid, size, weight)`, txRows);
  if (n.storesRaws) {
    const rawRows = new BinaryRows(2, 1 << 20);
    rows.txs.forEach((x, i) => rawRows.row().int8(firstId + i).bytea(x.raw));
    await copyRows(db, `${t.txRaws} (id, raw)`, rawRows);
  }
  const outRows = new BinaryRows(6, 1 << 20);
  for (let i = 0; i < out.id.length; i++) {
    outRows.row().int8(out.id[i]!).int4(out.vout[i]!).int8(out.value[i]!).int8(out.script[i]!).int8OrNull(out.spentBy[i] ?? null).int4OrNull(out.spentVin[i] ?? null);
  }
  await copyRows(db, `${t.outputs} (id, vout, value, script, spent_by, spent_vin)`, outRows);
  const p = rows.pending;
  if (p.spender.length > 0) {
    // With the spender's block (its first tx id), so the build sums each block's inputs without a lookup per spend.
    const pending = new BinaryRows(5, 1 << 20);
    for (let i = 0; i < p.spender.length; i++) {
      pending.row().int8(p.spender[i]!).int4(p.vin[i]!).bytea(p.prevTxid[i]!).int4(p.prevVout[i]!).int8(blockFirstTx(firsts, p.spender[i]!));
    }
    await copyRows(db, `${t.bulkPending} (spender, vin, prev_txid, prev_vout, spender_block)`, pending);
  }
  if (rows.scripts.length > 0) {
    const scripts = new BinaryRows(3, 1 << 20);
    for (const s of rows.scripts) scripts.row().int8(s.key).int8(s.firstId).bytea(s.script);
    await copyRows(db, `${t.bulkScripts} (key, first_id, script)`, scripts);
  }
}

/** Forgets the network's chain index and mempool (the start of a rebuild from scratch); the indexes are restored. */
export async function resetChainTx(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  await db.query(`TRUNCATE ${[t.blocks, t.txs, t.txRaws, t.outputs, t.history, t.scripts, t.mempoolTxs, t.mempoolOutputs, t.mempoolSpends].join(', ')}`);
  await db.query(`DROP TABLE IF EXISTS ${t.bulkPending}, ${t.bulkScripts}, ${t.bulkScripts}_distinct, ${t.bulkScripts}_pairs, ${t.bulkPending}_resolved, ${t.outputs}_bulk, ${t.bulkScripts}_sums`);
  for (const index of deferredIndexes('postgres', n.id)) {
    await db.query(index.drop);
    await db.query(index.create);
  }
  await db.query('DELETE FROM tips WHERE net = $1', [n.net]);
  await db.query('DELETE FROM bulk_loads WHERE net = $1', [n.net]);
}
