/**
 * The SQLite side of dumps (common/dump/dump-engine.ts) on a connection of its own. Reads run in one deferred transaction:
 * in WAL mode its first read fixes a snapshot that the indexer's later commits do not change, and readers never block
 * the writer. Writes run in one BEGIN IMMEDIATE transaction (the database's write lock; an indexer waits for it).
 */
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from './connection/sqlite-binding.js';
import { StoreError } from '../../core/domain/errors.js';
import type { DumpEngine, DumpSink, DumpSource, SqlRow } from '../common/dump/dump-engine.js';
import { normalize, type DumpTable, type DumpValue } from '../common/dump/dump-rows.js';
import { storedTotal } from './chain/sqlite-scripts.js';

const BATCH = 2_000;

export class SqliteDump implements DumpEngine {
  readonly engine = 'sqlite' as const;
  private readonly db: Database.Database;

  constructor(path: string) {
    if (!existsSync(path)) throw new StoreError(`no SQLite store at ${path}`);
    this.db = openSqliteDatabase(path);
    this.db.pragma('busy_timeout = 30000');
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('cache_size = -262144');
    this.db.defaultSafeIntegers(true);
  }

  async read<T>(fn: (source: DumpSource) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN');
    try {
      return await fn(this.source());
    } finally {
      this.db.exec('ROLLBACK');
    }
  }

  async write<T>(_lockNet: number | null, fn: (sink: DumpSink) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn(this.sink());
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private source(): DumpSource {
    const db = this.db;
    return {
      async *rows(table: DumpTable) {
        const cols = table.columns;
        const sql = `SELECT ${cols.map((c) => c.name).join(', ')} FROM ${table.name}${table.where ? ` WHERE ${table.where}` : ''} ORDER BY ${table.orderBy}`;
        const stmt = db.prepare(sql).raw(true);
        // Yielded in pages (fewer async steps); nothing else runs on this connection while a table is read.
        let batch: DumpValue[][] = [];
        for (const raw of stmt.iterate() as IterableIterator<unknown[]>) {
          batch.push(raw.map((v, i) => normalize(v, cols[i]!.kind)));
          if (batch.length === BATCH) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
      },
      async all(sql: string) {
        return db.prepare(sql).all() as SqlRow[];
      },
    };
  }

  private sink(): DumpSink {
    const db = this.db;
    const statements = new Map<string, Database.Statement>();
    return {
      ...this.source(),
      async exec(sql: string) {
        db.exec(sql);
      },
      async insert(table: DumpTable, rows: readonly DumpValue[][]) {
        let stmt = statements.get(table.name);
        if (!stmt) {
          const cols = table.columns.map((c) => c.name);
          stmt = db.prepare(`INSERT INTO ${table.name} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
          statements.set(table.name, stmt);
        }
        const kinds = table.columns.map((c) => c.kind);
        for (const row of rows) stmt.run(row.map((v, i) => stored(v, kinds[i]!)));
      },
      async syncIdentity() {
        // INTEGER PRIMARY KEY takes max(id) + 1 by itself.
      },
    };
  }
}

/** A dump value as this engine stores its column (see ColumnKind). */
function stored(v: DumpValue, kind: string): unknown {
  if (v === null) return null;
  if (kind === 'sum') return (v as bigint).toString();
  if (kind === 'total') return storedTotal(v as bigint);
  return v;
}
