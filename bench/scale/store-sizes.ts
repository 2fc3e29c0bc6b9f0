/**
 * Bytes on disk per table and per index after a clean stop. SQLite: the `dbstat` virtual table (compiled into
 * better-sqlite3's SQLite), pages of every b-tree summed. PostgreSQL: pg_table_size (heap, TOAST, free-space and
 * visibility maps) per table and pg_relation_size per index, after a CHECKPOINT.
 */
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';

export interface RelationSize {
  readonly name: string;
  readonly kind: 'table' | 'index';
  /** The table an index belongs to (its own name for a table). */
  readonly table: string;
  readonly bytes: number;
}

export function sqliteSizes(path: string): RelationSize[] {
  const db = openSqliteDatabase(path, { readonly: true });
  try {
    const owners = new Map<string, { kind: 'table' | 'index'; table: string }>();
    for (const row of db.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").all() as { type: string; name: string; tbl_name: string }[]) {
      owners.set(row.name, { kind: row.type === 'index' ? 'index' : 'table', table: row.tbl_name });
    }
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
    return rows.map((r) => {
      const owner = owners.get(r.name) ?? { kind: 'table' as const, table: r.name };
      return { name: r.name, kind: owner.kind, table: owner.table, bytes: Number(r.bytes) };
    });
  } finally {
    db.close();
  }
}

export async function postgresSizes(connectionString: string): Promise<RelationSize[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ name: string; kind: string; table: string; bytes: string }>(`
      SELECT c.relname AS name, 'table' AS kind, c.relname AS table, pg_table_size(c.oid) AS bytes
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      UNION ALL
      SELECT i.relname, 'index', t.relname, pg_relation_size(i.oid)
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public'`);
    return rows.map((r) => ({ name: r.name, kind: r.kind === 'index' ? 'index' : 'table', table: r.table, bytes: Number(r.bytes) }));
  } finally {
    await client.end();
  }
}

/** Rows sorted by table then kind, biggest first within a table's indexes; with bytes per transaction. */
export function sizeTable(sizes: readonly RelationSize[], txs: number): string[] {
  const byTable = new Map<string, RelationSize[]>();
  for (const s of sizes) byTable.set(s.table, [...(byTable.get(s.table) ?? []), s]);
  const tables = [...byTable.entries()].map(([table, rels]) => ({ table, rels, total: rels.reduce((a, r) => a + r.bytes, 0) })).sort((a, b) => b.total - a.total);
  const lines: string[] = [];
  const total = sizes.reduce((a, r) => a + r.bytes, 0);
  for (const { table, rels, total: tableTotal } of tables) {
    if (tableTotal < 64 * 1024) continue; // accounts, prices, meta: empty here
    lines.push(`    ${table.padEnd(34)} ${mib(tableTotal).padStart(10)} ${perTx(tableTotal, txs).padStart(9)}`);
    for (const r of rels.sort((a, b) => (a.kind === b.kind ? b.bytes - a.bytes : a.kind === 'table' ? -1 : 1))) {
      lines.push(`      ${(r.kind === 'table' ? 'rows' : `index ${r.name}`).padEnd(32)} ${mib(r.bytes).padStart(10)} ${perTx(r.bytes, txs).padStart(9)}`);
    }
  }
  lines.push(`    ${'all tables and indexes'.padEnd(34)} ${mib(total).padStart(10)} ${perTx(total, txs).padStart(9)}`);
  return lines;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const perTx = (bytes: number, txs: number): string => `${Math.round(bytes / txs)} B/tx`;
