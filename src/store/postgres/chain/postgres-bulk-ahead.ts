/**
 * Work of a later bulk-build step done ahead of it, beside an earlier step (postgres-bulk-build.ts), so that the
 * build's sessions keep both cores busy. bulk_loads.step keeps its meaning for a resumed load, this version's or an
 * older one's: "every step before this one is done". The work done ahead is exactly what the later step would do and
 * is committed whole (by the earlier step's own transaction, or by a side session's, postgres-bulk-side.ts), and the
 * later step skips what it finds done: an index by its catalog entry (valid: built and committed), a table by its
 * existence (made by one CREATE TABLE AS). A load an older version began simply finds nothing done ahead.
 */
import type pg from 'pg';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import type { PgNet } from './postgres-net.js';
import { one } from '../connection/postgres-sql.js';

/** True when the index exists and is valid (pg_index.indisvalid: built and committed). */
export async function indexBuilt(db: pg.ClientBase, name: string): Promise<boolean> {
  const row = await one(db, 'SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]);
  return row?.indisvalid === true;
}

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

/** Builds the deferred indexes not already built (ahead of their step). */
export async function createMissingIndexes(db: pg.ClientBase, n: PgNet, ...names: string[]): Promise<void> {
  for (const name of names) if (!(await indexBuilt(db, name))) await createIndexes(db, n, name);
}
