/**
 * The history of the bulk build: one row per (script, tx) pair with its flags (1: the tx pays the script, 2: spends
 * from it), from every output and every spent output, aggregated and written in key order in one statement (no
 * staging table), then its key. Written by the spender-index step on a side session (ahead of the history step,
 * postgres-bulk-ahead.ts), or by the history step when that found it not built.
 */
import type pg from 'pg';
import type { PgNet } from './postgres-net.js';
import { createIndexes, indexBuilt } from './postgres-bulk-ahead.js';

export function historyKey(n: PgNet): string {
  return `${n.t.history}_pkey`;
}

/** In the caller's transaction: rows and key together, so a history with its key is a complete one. */
export async function writeHistory(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  // A sorted aggregate: its groups come out in key order, which the insert needs anyway (no second sort).
  await db.query('SET LOCAL enable_hashagg = off');
  await db.query(`INSERT INTO ${t.history} (script, id, flags)
    SELECT script, id, bit_or(f) FROM (SELECT script, id, 1 AS f FROM ${t.outputs}
      UNION ALL SELECT script, spent_by, 2 FROM ${t.outputs} WHERE spent_by IS NOT NULL) io
    GROUP BY script, id ORDER BY script, id`);
  await db.query('SET LOCAL enable_hashagg = on');
  await createIndexes(db, n, historyKey(n));
}

/** Writes the history unless it is built (its key valid: the rows came with it). */
export async function writeHistoryOnce(db: pg.ClientBase, n: PgNet): Promise<void> {
  if (!(await indexBuilt(db, historyKey(n)))) await writeHistory(db, n);
}
