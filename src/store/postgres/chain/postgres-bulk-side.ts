/**
 * Second sessions for the PostgreSQL bulk build (postgres-bulk-build.ts): each build step is one transaction on the
 * writer session, and the statements that cannot run in parallel (INSERT … SELECT, most of a CREATE TABLE AS) leave
 * the other core idle, so a step may hand work to a side session meanwhile.
 *
 * What a side session may do, so that a kill at any point leaves the index right: work derived only from tables that
 * no longer change (the load has ended: a step after the first one), done in one transaction of its own that
 * commits by itself, whose result is all or nothing (a table made by CREATE TABLE AS, an index with its table's
 * rows), and that the step needing it checks for before doing it itself. The step that starts side work awaits it
 * before it commits, so no side session runs into the next step.
 */
import type pg from 'pg';

/** How each build step runs: whole-table joins, with memory for sorts and hashes (this transaction only). */
export const BUILD_SETTINGS = "SET LOCAL enable_hashjoin = on; SET LOCAL enable_mergejoin = on; SET LOCAL enable_bitmapscan = on; SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL synchronous_commit = off";

/**
 * A side session's settings: the build's, no JIT and no parallel workers. The writer session turns JIT off for good;
 * a pooled session would compile the build's statements, whose estimated costs on tables without statistics pass
 * jit_above_cost (on the 100k chain ~0.3 s of compiling for a 0.3 s statement, ~1.1 s for the outputs' rewrite).
 * A side session runs beside the step's own statement: its parallel workers only took the cores that statement was
 * using (on the 100k chain the history's sort took 0.86 s beside the sums' three processes).
 */
export const SIDE_SETTINGS = `${BUILD_SETTINGS}; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0`;

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

/**
 * `fn` in one transaction of its own on a side session, with the build's settings. Never rejects before the caller
 * can await it: resolves to the error if it failed (its transaction rolled back with the discarded session), else null.
 */
export function sideTransaction(side: SideSession, what: string, fn: (db: pg.ClientBase) => Promise<void>): Promise<unknown> {
  return side(async (db) => {
    await db.query('BEGIN');
    await db.query(SIDE_SETTINGS);
    await fn(db);
    await db.query('COMMIT');
  }).then(() => null, (e: unknown) => e ?? new Error(`${what} failed on a side session`));
}

/** Awaits side work begun by a step and fails the step (before its commit) if the work failed. */
export async function settled(work: Promise<unknown>): Promise<void> {
  const failed = await work;
  if (failed) throw failed;
}
