/**
 * Initial (bulk) load for PostgreSQL, the appending half (the building half is postgres-bulk-build.ts). PostgreSQL
 * tables are heaps: with every index of the network's chain tables dropped (keys included), a batch is a few binary
 * COPYs that append to them (encoded by postgres-bulk-encode.ts), and nothing is read back: a spend of an output from
 * an earlier batch is copied to bulk_pending_n for the build to resolve, the scripts seen to bulk_scripts_n.
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { assertExtendsTip } from '../../common/chain-writes/batch-needs.js';
import type { RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import type { ScriptKeyParams } from '../../common/chain-writes/script-keys.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { readBulkLoad, readTipRow, writeTip } from '../../common/schema/network-rows.js';
import { copyPayload } from '../connection/postgres-copy.js';
import { encodeBulkBatch, type EncodedBulkBatch, type EncodedRelease } from './postgres-bulk-encode.js';
import { beginHeld, ensureHeld, heldTable, moveHeld } from './postgres-bulk-held.js';
import { scriptSumsTable } from './postgres-bulk-sums.js';
import type { HeldOutputs } from './postgres-held-outputs.js';
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
  await beginHeld(db, n);
  await db.query('INSERT INTO bulk_loads (net, step, started_at) VALUES ($1, 0, $2)', [n.net, startedAt]);
}

/** Networks whose staging tables this process has checked (spender_block column, held outputs' table). */
const shaped = new WeakSet<PgNet>();

/**
 * Encodes the blocks on this session's thread and appends them (the inline load; the worker load encodes elsewhere).
 * `held` holds nothing between batches here (capacity 0): each batch writes its outputs, as before held outputs.
 */
export async function loadBlocksTx(db: pg.ClientBase, n: PgNet, blocks: readonly BlockToConnect[], recent: RecentKeys, held: HeldOutputs): Promise<ChainTip> {
  const { tip, nextTx } = await runPostgres(db, readTipRow(n.net));
  assertExtendsTip(blocks, tip);
  return loadEncodedTx(db, n, encodeBulkBatch(n, blocks, nextTx, await n.keys(db), recent, held));
}

/**
 * Appends an encoded batch (postgres-bulk-encode.ts): only if it extends the tip as written, with the tx ids the tip
 * row expects (a batch encoded for another tip, e.g. after a failed write, is refused whole).
 */
export async function loadEncodedTx(db: pg.ClientBase, n: PgNet, batch: EncodedBulkBatch): Promise<ChainTip> {
  const state = await runPostgres(db, readBulkLoad(n.net));
  if (!state || state.step !== 0) throw new StoreError(`${n.id}: no bulk load is appending blocks`);
  // A batch lost in a database crash is loaded again from the tip marker: its commit need not wait for the WAL flush.
  await db.query('SET LOCAL synchronous_commit = off');
  if (!shaped.has(n)) {
    // A load begun by an older version staged pending spends without their block (the build looks those up).
    await db.query(`ALTER TABLE ${n.t.bulkPending} ADD COLUMN IF NOT EXISTS spender_block BIGINT`);
    await ensureHeld(db, n);
    shaped.add(n);
  }
  const { tip, nextTx } = await runPostgres(db, readTipRow(n.net));
  const expected = tip ? tip.height + 1 : 0;
  if (batch.fromHeight !== expected || (tip !== null && batch.prevHash !== tip.hash)) {
    throw new StoreError(`batch at height ${batch.fromHeight} (prev ${batch.prevHash ?? 'none'}) does not extend tip (expected height ${expected}${tip ? `, prev ${tip.hash}` : ''})`);
  }
  if (batch.firstId !== nextTx) throw new StoreError(`batch numbered from tx ${batch.firstId}, the tip expects ${nextTx}`);
  await moveHeld(db, n, batch.heldFrom, batch.heldTo);
  for (const copy of batch.copies) await copyPayload(db, copy.target, copy.payload);
  await runPostgres(db, writeTip(n.net, batch.newTip, nextTx + batch.txCount));
  return batch.newTip;
}

/** Writes the outputs a load still held as it ends (encodeHeldRelease): nothing is held afterwards. */
export async function loadReleaseTx(db: pg.ClientBase, n: PgNet, release: EncodedRelease): Promise<void> {
  const state = await runPostgres(db, readBulkLoad(n.net));
  if (!state || state.step !== 0) throw new StoreError(`${n.id}: no bulk load is appending blocks`);
  await ensureHeld(db, n);
  const { nextTx } = await runPostgres(db, readTipRow(n.net));
  if (release.next !== nextTx) throw new StoreError(`outputs held up to tx ${release.next}, the tip is at ${nextTx}`);
  await moveHeld(db, n, release.heldFrom, release.next);
  for (const copy of release.copies) await copyPayload(db, copy.target, copy.payload);
}

/**
 * Every table a bulk load or its build stages (what this version and older ones made): dropped when the build ends
 * (postgres-bulk-build.ts) and when the chain is reset, from one list.
 */
export function bulkStagingTables(n: PgNet): string[] {
  const { t } = n;
  return [
    t.bulkPending, t.bulkScripts, `${t.bulkScripts}_distinct`, `${t.bulkScripts}_pairs`, `${t.bulkPending}_resolved`, `${t.outputs}_bulk`,
    scriptSumsTable(n), heldTable(n),
  ];
}

/** Salt, key width and next tx id: what a worker thread needs to encode the next batch (postgres-bulk-encode.ts). */
export async function bulkEncodingTx(db: pg.ClientBase, n: PgNet): Promise<{ nextTx: number; keys: ScriptKeyParams }> {
  const { nextTx } = await runPostgres(db, readTipRow(n.net));
  return { nextTx, keys: (await n.keys(db)).params };
}

/** Forgets the network's chain index and mempool (the start of a rebuild from scratch); the indexes are restored. */
export async function resetChainTx(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  await db.query(`TRUNCATE ${[t.blocks, t.txs, t.txRaws, t.outputs, t.history, t.scripts, t.mempoolTxs, t.mempoolOutputs, t.mempoolSpends].join(', ')}`);
  await db.query(`DROP TABLE IF EXISTS ${bulkStagingTables(n).join(', ')}`);
  for (const index of deferredIndexes('postgres', n.id)) {
    await db.query(index.drop);
    await db.query(index.create);
  }
  await db.query('DELETE FROM tips WHERE net = $1', [n.net]);
  await db.query('DELETE FROM bulk_loads WHERE net = $1', [n.net]);
}
