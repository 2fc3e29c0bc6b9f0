/**
 * Dump rows into a PostgreSQL table by binary COPY (postgres-copy.ts): each value in its column's binary form, so
 * nothing is sent as text and parsed again (bytea as hex doubles the bytes). The columns' types are read from the
 * catalog, since a dump's "int" may be an INTEGER, BIGINT or SMALLINT column here.
 */
import type pg from 'pg';
import type { DumpTable, DumpValue } from '../common/dump/dump-rows.js';
import { BinaryRows, copyRows } from './connection/postgres-copy.js';

type Writer = (rows: BinaryRows, v: DumpValue) => void;

const WRITERS: Record<string, Writer> = {
  smallint: (r, v) => r.int2(Number(v)),
  integer: (r, v) => r.int4(Number(v)),
  bigint: (r, v) => r.int8(v as bigint),
  numeric: (r, v) => r.numeric(v as bigint),
  boolean: (r, v) => r.bool(v === 1n),
  bytea: (r, v) => r.bytea(v as Buffer),
  text: (r, v) => r.bytea(Buffer.from(v as string, 'utf8')), // binary text is its UTF-8 bytes
};

export class DumpCopier {
  private readonly writers = new Map<string, Writer[]>();

  constructor(private readonly client: pg.ClientBase) {}

  async copy(table: DumpTable, rows: readonly DumpValue[][]): Promise<void> {
    const writers = await this.columnWriters(table);
    const out = new BinaryRows(writers.length, 1 << 20);
    for (const row of rows) {
      out.row();
      for (let i = 0; i < writers.length; i++) {
        const v = row[i]!;
        if (v === null) out.null();
        else writers[i]!(out, v);
      }
    }
    await copyRows(this.client, `${table.name} (${table.columns.map((c) => c.name).join(', ')})`, out);
  }

  private async columnWriters(table: DumpTable): Promise<Writer[]> {
    let writers = this.writers.get(table.name);
    if (!writers) {
      const result = await this.client.query('SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table.name]);
      const types = new Map((result.rows as { column_name: string; data_type: string }[]).map((r) => [r.column_name, r.data_type]));
      writers = table.columns.map((c) => {
        const writer = WRITERS[types.get(c.name) ?? ''];
        if (!writer) throw new Error(`${table.name}.${c.name}: no binary writer for type ${types.get(c.name) ?? '(missing column)'}`);
        return writer;
      });
      this.writers.set(table.name, writers);
    }
    return writers;
  }
}
