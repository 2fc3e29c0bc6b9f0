/**
 * What snapshot export/import and backup/restore need from an engine: one consistent read transaction that streams
 * tables in canonical order, and one write transaction that inserts rows. Each driver implements it on its own
 * connection (src/store/sqlite/sqlite-dump.ts, src/store/postgres/postgres-dump.ts); the logic above it is shared.
 */
import type { Engine } from '../schema/chain-tables.js';
import type { DumpTable, DumpValue } from './dump-rows.js';

export type SqlRow = Record<string, unknown>;

export interface DumpSource {
  /** The table's rows in its canonical order, values in dump form, in pages (one async step per page, not per row). */
  rows(table: DumpTable): AsyncIterable<DumpValue[][]>;
  /** Rows of a small query (no parameters: callers inline integers only). */
  all(sql: string): Promise<SqlRow[]>;
}

export interface DumpSink extends DumpSource {
  exec(sql: string): Promise<void>;
  /** Inserts rows given in dump form into the table. */
  insert(table: DumpTable, rows: readonly DumpValue[][]): Promise<void>;
  /** After inserting explicit ids into an identity column: moves its sequence past them (PostgreSQL; no-op in SQLite). */
  syncIdentity(table: DumpTable): Promise<void>;
}

export interface DumpEngine {
  readonly engine: Engine;
  /** Runs `fn` in one read-only transaction: every read sees the same committed state, while writers go on. */
  read<T>(fn: (source: DumpSource) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one write transaction, committed only if it returns. `lockNet`: the network whose indexer must not
   * run meanwhile (PostgreSQL: the indexer's advisory lock, refused if held; SQLite: the write lock).
   */
  write<T>(lockNet: number | null, fn: (sink: DumpSink) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Whether `sql` returns at least one row. */
export async function any(source: DumpSource, sql: string): Promise<boolean> {
  return (await source.all(`${sql} LIMIT 1`)).length > 0;
}
