/**
 * The outputs' amounts per script for the bulk build's totals step, staged while the history step runs: on a second
 * session (the build's own statements leave one core idle: INSERT … SELECT never runs in parallel), so the two
 * biggest aggregates of the build overlap.
 *
 * Crash safety without the step's transaction: the staged table is derived from the outputs alone, which are final
 * once the script keys step has committed, and the side session commits it on its own (a logged table: it must
 * survive a server crash between the steps). The history step awaits it before committing, and a history step run
 * again re-stages it from scratch (dropped and made in one transaction), so a kill at any point leaves either no table,
 * or one that is complete and right. The totals step reads it if it is there and sums the outputs itself otherwise
 * (a load whose history step an older version ran); it is dropped with the other staging tables.
 */
import type pg from 'pg';
import type { PgNet } from './postgres-net.js';

/** Runs `fn` on a session of its own, beside the step's transaction (what it commits, it commits by itself). */
export type SideSession = (fn: (db: pg.ClientBase) => Promise<void>) => Promise<void>;

/** A side session from a pool: a client whose work failed is discarded, not returned mid-transaction. */
export function poolSideSession(pool: pg.Pool): SideSession {
  return async (fn) => {
    const client = await pool.connect();
    try {
      await fn(client);
      client.release();
    } catch (e) {
      client.release(e instanceof Error ? e : new Error(String(e)));
      throw e;
    }
  };
}

export function scriptSumsTable(n: PgNet): string {
  return `${n.t.bulkScripts}_sums`;
}

/** Received and sent amounts per script key, exact (NUMERIC: Dogecoin sums pass 2^63). */
export function scriptSumsSql(n: PgNet): string {
  return `SELECT script, sum(value) AS received, sum(value) FILTER (WHERE spent_by IS NOT NULL) AS sent FROM ${n.t.outputs} GROUP BY script`;
}

/**
 * Stages the sums on the side session. A sorted aggregate: a hash aggregate keeps a NUMERIC state per script in
 * memory and took longer; never rejects before the caller can await it (the result says whether it failed).
 */
export function stageScriptSums(side: SideSession, n: PgNet): Promise<unknown> {
  const table = scriptSumsTable(n);
  return side(async (db) => {
    await db.query('BEGIN');
    await db.query("SET LOCAL work_mem = '256MB'; SET LOCAL enable_hashagg = off; SET LOCAL synchronous_commit = off");
    await db.query(`DROP TABLE IF EXISTS ${table}`);
    await db.query(`CREATE TABLE ${table} AS ${scriptSumsSql(n)}`);
    await db.query('COMMIT');
  }).then(() => null, (e: unknown) => e ?? new Error('staging the script sums failed'));
}
