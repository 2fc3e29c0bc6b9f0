/**
 * The outputs' amounts per script for the bulk build's totals step (`bulk_scripts_n_sums`), staged while the history
 * step runs: on a side session (postgres-bulk-side.ts; the history's INSERT … SELECT never runs in parallel), so the
 * two biggest aggregates of the build overlap.
 *
 * The table is derived from the outputs alone, which are final once the script keys step has committed; the side
 * session drops and makes it again in one transaction that commits by itself (a logged table: it must survive a
 * server crash between the steps), so a kill at any point leaves either no table, or one that is complete and right.
 * The history step awaits it before committing and stages it again whenever it runs again. The totals step reads it
 * if it is there and sums the outputs itself otherwise (a load whose history step an older version ran); it is
 * dropped with the other staging tables.
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

/** A sorted aggregate: a hash aggregate keeps a NUMERIC state per script in memory and took longer. */
async function makeScriptSums(db: pg.ClientBase, n: PgNet): Promise<void> {
  const table = scriptSumsTable(n);
  await db.query('SET LOCAL enable_hashagg = off');
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  await db.query(`CREATE TABLE ${table} AS ${scriptSumsSql(n)}`);
  await db.query('SET LOCAL enable_hashagg = on');
}

/** Stages the table on a side session; the result says whether it failed (sideTransaction). */
export function stageScriptSums(side: SideSession, n: PgNet): Promise<unknown> {
  return sideTransaction(side, 'staging the script sums', (db) => makeScriptSums(db, n));
}
