/**
 * Work of a later bulk-build step done ahead of it, beside an earlier step (postgres-bulk-build.ts: the distinct
 * scripts of the script keys step, listed beside the spends step), so that the build's sessions keep both cores busy.
 * bulk_loads.step keeps its meaning for a resumed load, this version's or an older one's: "every step before this one
 * is done". The work done ahead is exactly what the later step would do, committed whole by a side session
 * (postgres-bulk-side.ts: one CREATE TABLE AS), and the later step skips what it finds done (the table there). A load
 * an older version began simply finds nothing done ahead.
 */
import type pg from 'pg';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import type { PgNet } from './postgres-net.js';
import { one } from '../connection/postgres-sql.js';

export async function tableExists(db: pg.ClientBase, name: string): Promise<boolean> {
  return (await one(db, 'SELECT to_regclass($1) AS r', [name]))!.r !== null;
}

/** (Re)builds deferred indexes by name (the DDL in chain-tables.ts). */
export async function createIndexes(db: pg.ClientBase, n: PgNet, ...names: string[]): Promise<void> {
  for (const name of names) {
    const index = deferredIndexes('postgres', n.id).find((i) => i.name === name)!;
    await db.query(index.drop);
    await db.query(index.create);
  }
}
