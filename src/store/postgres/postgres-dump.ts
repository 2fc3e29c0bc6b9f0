/**
 * The PostgreSQL side of dumps (common/dump/dump-engine.ts) on a session of its own. Reads run in one REPEATABLE READ
 * READ ONLY transaction (one snapshot for every table, writers not blocked) through a cursor, so a table of any size
 * streams in pages. Writes run in one transaction; when a network is named, the transaction holds that network's
 * indexer advisory lock (refused if an indexer holds it), so no indexer writes the network while it loads.
 */
import pg from 'pg';
import { StoreError } from '../../core/domain/errors.js';
import type { DumpEngine, DumpSink, DumpSource, SqlRow } from '../common/dump/dump-engine.js';
import { normalize, type ColumnKind, type DumpTable, type DumpValue } from '../common/dump/dump-rows.js';
import { DumpCopier } from './postgres-dump-copy.js';
import { LOCK_NAMESPACE } from './connection/postgres-sql.js';

const PAGE = 5_000;
const ARRAY_TYPE: Record<ColumnKind, string> = { int: 'int8[]', bool: 'bool[]', sum: 'numeric[]', total: 'numeric[]', blob: 'bytea[]', text: 'text[]' };

export class PostgresDump implements DumpEngine {
  readonly engine = 'postgres' as const;
  private readonly client: pg.Client;
  private connected: Promise<void> | null = null;

  constructor(connectionString: string) {
    this.client = new pg.Client({ connectionString });
  }

  async read<T>(fn: (source: DumpSource) => Promise<T>): Promise<T> {
    await this.connect();
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      return await fn(this.source());
    } finally {
      await this.client.query('ROLLBACK');
    }
  }

  async write<T>(lockNet: number | null, fn: (sink: DumpSink) => Promise<T>): Promise<T> {
    await this.connect();
    await this.client.query('BEGIN');
    try {
      if (lockNet !== null) {
        const got = await this.client.query('SELECT pg_try_advisory_xact_lock($1, $2) AS locked', [LOCK_NAMESPACE, lockNet]);
        if ((got.rows[0] as SqlRow).locked !== true) throw new StoreError('an indexer is running for this network (advisory lock held): stop it first');
      }
      const result = await fn(this.sink());
      await this.client.query('COMMIT');
      return result;
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.client.end();
  }

  private async connect(): Promise<void> {
    this.connected ??= this.client.connect().then(() => undefined);
    await this.connected;
  }

  private source(): DumpSource {
    const client = this.client;
    return {
      async *rows(table: DumpTable) {
        const cols = table.columns;
        await client.query(`DECLARE dump_rows NO SCROLL CURSOR FOR SELECT ${cols.map((c) => c.name).join(', ')} FROM ${table.name}${
          table.where ? ` WHERE ${table.where}` : ''} ORDER BY ${binaryOrder(table)}`);
        try {
          for (;;) {
            const page = await client.query({ text: `FETCH ${PAGE} FROM dump_rows`, rowMode: 'array' });
            yield (page.rows as unknown[][]).map((raw) => raw.map((v, i) => normalize(v, cols[i]!.kind)));
            if (page.rows.length < PAGE) break;
          }
        } finally {
          await client.query('CLOSE dump_rows');
        }
      },
      async all(sql: string) {
        return (await client.query(sql)).rows as SqlRow[];
      },
    };
  }

  private sink(): DumpSink {
    const client = this.client;
    const copier = new DumpCopier(client);
    return {
      ...this.source(),
      async exec(sql: string) {
        await client.query(sql);
      },
      async insert(table: DumpTable, rows: readonly DumpValue[][]) {
        if (rows.length === 0) return;
        // Binary COPY for the big tables; identity columns (backup tables, small) need OVERRIDING SYSTEM VALUE.
        if (!table.identity) return copier.copy(table, rows);
        const cols = table.columns;
        // One statement per page of rows: a column array each (bigints as decimal text, bytea as Buffers).
        const arrays = cols.map((c, i) => rows.map((r) => param(r[i]!, c.kind)));
        const overriding = table.identity ? ' OVERRIDING SYSTEM VALUE' : '';
        await client.query(
          `INSERT INTO ${table.name} (${cols.map((c) => c.name).join(', ')})${overriding}
           SELECT * FROM unnest(${cols.map((c, i) => `$${i + 1}::${ARRAY_TYPE[c.kind]}`).join(', ')})`,
          arrays,
        );
      },
      async syncIdentity(table: DumpTable) {
        if (!table.identity) return;
        const col = table.identity;
        // Next id after the restored ones (or 1 for an empty table): new rows never collide with restored ids.
        await client.query(`SELECT setval(pg_get_serial_sequence('${table.name}', '${col}'), COALESCE((SELECT max(${col}) FROM ${table.name}), 0) + 1, false)`);
      },
    };
  }
}

/** The canonical order with text compared bytewise, as SQLite does, whatever the database's collation. */
function binaryOrder(table: DumpTable): string {
  return table.orderBy.split(',').map((part) => {
    const name = part.trim();
    return table.columns.find((c) => c.name === name)?.kind === 'text' ? `${name} COLLATE "C"` : name;
  }).join(', ');
}

function param(v: DumpValue, kind: ColumnKind): unknown {
  if (v === null) return null;
  if (kind === 'bool') return v === 1n;
  return typeof v === 'bigint' ? v.toString() : v;
}
