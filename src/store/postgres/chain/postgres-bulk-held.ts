/**
 * What the store knows of the outputs a PostgreSQL initial load holds in memory (postgres-held-outputs.ts): the table
 * bulk_pending_n_held keeps, in the transaction of each batch, the id of the first tx whose outputs are not written
 * yet. Every batch must start from the value it finds (an encoder out of step with the store is refused); a load
 * resumed after a kill rewinds to it: the blocks and txs from there on are deleted with what was staged for them,
 * and are loaded again (at most the held capacity of txs).
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import { bytesToHex } from '../../common/schema/codec.js';
import { readTipRow, writeTip } from '../../common/schema/network-rows.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { num, one, tableExists } from '../connection/postgres-sql.js';
import type { PgNet } from './postgres-net.js';

export function heldTable(n: PgNet): string {
  return `${n.t.bulkPending}_held`;
}

/** A new load holds nothing yet. */
export async function beginHeld(db: pg.ClientBase, n: PgNet): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${heldTable(n)}`);
  await db.query(`CREATE TABLE ${heldTable(n)} (outputs_from BIGINT NOT NULL)`);
  await db.query(`INSERT INTO ${heldTable(n)} VALUES (0)`);
}

/**
 * Makes the table of a load begun by an older version, which held no outputs: with the tip's next tx id (its first
 * batch in this version then checks against that). Once a process, before its first write or rewind.
 */
export async function ensureHeld(db: pg.ClientBase, n: PgNet): Promise<void> {
  if (await tableExists(db, heldTable(n))) return;
  await db.query(`CREATE TABLE ${heldTable(n)} (outputs_from BIGINT NOT NULL)`);
  await db.query(`INSERT INTO ${heldTable(n)} SELECT coalesce((SELECT next_tx FROM tips WHERE net = $1), 0)`, [n.net]);
}

/** The id from which outputs are held. */
async function heldFrom(db: pg.ClientBase, n: PgNet): Promise<number> {
  return num((await one(db, `SELECT outputs_from FROM ${heldTable(n)}`))!.outputs_from);
}

/** Refuses a write whose encoder held outputs from another tx id than the store recorded, then records the new one. */
export async function moveHeld(db: pg.ClientBase, n: PgNet, from: number, to: number): Promise<void> {
  const stored = await heldFrom(db, n);
  if (stored !== from) throw new StoreError(`the load's outputs are held from tx ${stored}, a write expects ${from}`);
  if (to !== from) await db.query(`UPDATE ${heldTable(n)} SET outputs_from = $1`, [to]);
}

/**
 * After a kill (or a failed write) while outputs were held: deletes the blocks and txs whose outputs were never
 * written, with their staged spends and scripts, and moves the tip back to the last block before them.
 */
export async function rewindToHeld(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  const { nextTx } = await runPostgres(db, readTipRow(n.net));
  await ensureHeld(db, n);
  const from = await heldFrom(db, n);
  if (from >= nextTx) return;
  await db.query(`DELETE FROM ${t.blocks} WHERE first_tx >= $1`, [from]);
  for (const table of [t.txs, t.txRaws]) await db.query(`DELETE FROM ${table} WHERE id >= $1`, [from]);
  await db.query(`DELETE FROM ${t.bulkPending} WHERE spender >= $1`, [from]);
  await db.query(`DELETE FROM ${t.bulkScripts} WHERE first_id >= $1`, [from]);
  const last = await one(db, `SELECT height, hash FROM ${t.blocks} ORDER BY height DESC LIMIT 1`);
  if (!last) {
    await db.query('DELETE FROM tips WHERE net = $1', [n.net]);
    return;
  }
  await runPostgres(db, writeTip(n.net, { height: num(last.height), hash: bytesToHex(last.hash as Buffer) }, from));
}
