/**
 * The outputs' amounts per script for the bulk build's totals step (`bulk_scripts_n_sums`), made ahead of it: by the
 * spender-index step beside the history it starts (postgres-bulk-build.ts), or on a side session beside a history
 * step that builds the history itself (a load whose earlier steps an older version ran).
 *
 * The table is derived from the outputs alone, which are final once the script keys step has committed; it is
 * dropped and made again in the one transaction that makes it, so it is either absent, or complete and right (a
 * logged table: it must survive a server crash between the steps). The totals step reads it if it is there and sums
 * the outputs itself otherwise; it is dropped with the other staging tables.
 */
import type pg from 'pg';
import type { PgNet } from './postgres-net.js';
import { sideTransaction, type SideSession } from './postgres-bulk-side.js';

export function scriptSumsTable(n: PgNet): string {
  return `${n.t.bulkScripts}_sums`;
}

/** Received and sent amounts per script key, exact (NUMERIC: Dogecoin sums pass 2^63). */
export function scriptSumsSql(n: PgNet): string {
  return `SELECT script, sum(value) AS received, sum(value) FILTER (WHERE spent_by IS NOT NULL) AS sent FROM ${n.t.outputs} GROUP BY script`;
}

/**
 * Makes the table in the caller's transaction. A sorted aggregate: a hash aggregate keeps a NUMERIC state per script
 * in memory and took longer.
 */
export async function makeScriptSums(db: pg.ClientBase, n: PgNet): Promise<void> {
  const table = scriptSumsTable(n);
  await db.query('SET LOCAL enable_hashagg = off');
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  await db.query(`CREATE TABLE ${table} AS ${scriptSumsSql(n)}`);
  await db.query('SET LOCAL enable_hashagg = on');
}

/** Makes the table on a side session; the result says whether it failed (sideTransaction). */
export function stageScriptSums(side: SideSession, n: PgNet): Promise<unknown> {
  return sideTransaction(side, 'staging the script sums', (db) => makeScriptSums(db, n));
}
