/**
 * Both store engines side by side for integration tests: a SQLite file and a database on a
 * throwaway PostgreSQL server, plus a digest of every table to compare two stores' contents.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ChainStore } from '../../src/core/index.js';
import { unpackPrevouts } from '../../src/store/common/schema/codec.js';
import type { ChainStoreOptions } from '../../src/store/common/schema/store-options.js';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

export type EngineName = 'sqlite' | 'postgres';

export interface TestStore {
  readonly engine: EngineName;
  /** The store URL as configured (`sqlite:…` or `postgres://…`). */
  readonly url: string;
  readonly store: ChainStore;
  /** sha256 over every table's rows in a canonical order, leaving out the tables named in `without`. */
  digest(without?: readonly string[]): Promise<string>;
  /** Reopens the store (as a restarted process would). */
  reopen(): Promise<ChainStore>;
}

export class StoreEngines {
  private server: PostgresServer | null = null;
  private admin: pg.Client | null = null;
  private readonly dirs: string[] = [];
  private readonly stores: TestStore[] = [];
  private counter = 0;

  /** A fresh, migrated, empty store of the given engine. */
  async create(engine: EngineName, options: ChainStoreOptions = {}): Promise<TestStore> {
    const test = engine === 'sqlite' ? this.createSqlite(options) : await this.createPostgres(options);
    await test.store.migrate();
    this.stores.push(test);
    return test;
  }

  async close(): Promise<void> {
    for (const s of this.stores) await s.store.close().catch(() => undefined);
    await this.admin?.end();
    await this.server?.stop();
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }

  private createSqlite(options: ChainStoreOptions): TestStore {
    const dir = mkdtempSync(join(tmpdir(), 'outpoint-sqlite-'));
    this.dirs.push(dir);
    const path = join(dir, 'outpoint.db');
    const holder = { store: new SqliteStore({ path, ...options }) as ChainStore };
    return {
      engine: 'sqlite',
      url: `sqlite:${path}`,
      get store() {
        return holder.store;
      },
      digest: (without = []) => Promise.resolve(sqliteDigest(path, without)),
      async reopen() {
        await holder.store.close();
        holder.store = new SqliteStore({ path, ...options });
        return holder.store;
      },
    };
  }

  private async createPostgres(options: ChainStoreOptions): Promise<TestStore> {
    if (!this.server) {
      this.server = await startPostgres();
      this.admin = new pg.Client({ connectionString: this.server.url });
      await this.admin.connect();
    }
    const name = `outpoint_it_${process.pid}_${++this.counter}`;
    await this.admin!.query(`CREATE DATABASE ${name}`);
    const url = this.server.urlFor(name);
    // Loaded only when a test asks for PostgreSQL (OUTPOINT_TEST_ENGINES=sqlite runs need no pg driver code).
    const { PostgresStore } = await import('../../src/store/postgres/postgres-store.js');
    const holder = { store: new PostgresStore({ connectionString: url, maxConnections: 4, ...options }) as ChainStore };
    return {
      engine: 'postgres',
      url,
      get store() {
        return holder.store;
      },
      digest: (without = []) => postgresDigest(url, without),
      async reopen() {
        await holder.store.close();
        holder.store = new PostgresStore({ connectionString: url, maxConnections: 4, ...options });
        return holder.store;
      },
    };
  }
}

/** Every table as rows of named values (the digest's input, from either engine). */
type Tables = Map<string, Record<string, unknown>[]>;

/** Tables of script rows (key, script bytes): their key is the row's own, left out (the row is named by its bytes). */
const SCRIPT_TABLES = /^(bulk_)?scripts_/;
/** Columns holding a script key, outside the tables of script rows. */
const SCRIPT_KEY_COLUMNS = new Set(['script']);
/** Columns holding packed prevouts (codec.ts), which carry script keys inside. */
const PREVOUT_COLUMNS = new Set(['prevouts', 'orphan_prevouts']);

/**
 * sha256 over every table's rows in a canonical order. Script keys depend on the database's secret salt (and, on a
 * collision, on the order scripts arrived in), so every script key is replaced by the script's bytes, inside packed
 * prevouts too, and the salt itself is left out: two equal indexes digest alike across runs and engines. Booleans
 * are written as 0/1 (SQLite has none).
 */
function digestTables(tables: Tables, without: readonly string[] = []): string {
  const hash = createHash('sha256');
  const scriptsOf = new Map<string, Map<string, string>>();
  for (const [name, rows] of tables) {
    if (name.startsWith('scripts_')) scriptsOf.set(name.slice('scripts_'.length), new Map(rows.map((r) => [canonical(r['key']), canonical(r['script'])])));
  }
  for (const name of [...tables.keys()].sort()) {
    // Mempool samples are taken by the clock (an indexer process samples, a reference built from blocks does not): not the index.
    // SQLite's scripthash table is derived from the script rows (PostgreSQL keeps the same as an expression index):
    // its own conformance tests check it.
    if (without.includes(name) || name === 'mempool_samples' || name.startsWith('script_hashes_')) continue;
    const net = [...scriptsOf.keys()].find((n) => name.endsWith(`_${n}`));
    const scripts = net === undefined ? new Map<string, string>() : scriptsOf.get(net)!;
    const rows = tables.get(name)!
      // The salt is random per database; raw_txs records the configuration a process started with, not the index.
      .filter((row) => !(name === 'meta' && (row['key'] === 'script_key_salt' || row['key'] === 'raw_txs')))
      // Wall-clock times of the sync status are not part of the index (phase, heights and ETA must match).
      .map((row) => (name === 'sync_status' ? { ...row, updated_at: null } : row))
      .map((row) => canonicalRow(row, SCRIPT_TABLES.test(name), scripts));
    rows.sort();
    hash.update(`${name}\n${rows.join('\n')}\n`);
  }
  return hash.digest('hex');
}

function canonicalRow(row: Record<string, unknown>, isScriptRow: boolean, scripts: Map<string, string>): string {
  const script = (key: unknown): string => scripts.get(canonical(key)) ?? `?${canonical(key)}`;
  return Object.keys(row)
    .sort()
    .flatMap((k) => {
      const value = row[k];
      if (isScriptRow && k === 'key') return [];
      if (!isScriptRow && SCRIPT_KEY_COLUMNS.has(k) && value !== null) return [`${k}=${script(value)}`];
      if (PREVOUT_COLUMNS.has(k) && value instanceof Uint8Array) {
        const prevouts = unpackPrevouts(value).map((p) => (p ? `${p.txid}:${p.vout}:${p.value}:${script(p.scriptId)}` : 'coinbase'));
        return [`${k}=${prevouts.join(',')}`];
      }
      return [`${k}=${canonical(value)}`];
    })
    .join('|');
}

function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

export function sqliteDigest(path: string, without: readonly string[] = []): string {
  const db = openSqliteDatabase(path, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
    return digestTables(new Map(names.map(({ name }) => [name, db.prepare(`SELECT * FROM ${name}`).all() as Record<string, unknown>[]])), without);
  } finally {
    db.close();
  }
}

export async function postgresDigest(url: string, without: readonly string[] = []): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables: Tables = new Map();
    for (const { tablename } of (await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows as { tablename: string }[]) {
      tables.set(tablename, (await client.query(`SELECT * FROM ${tablename}`)).rows as Record<string, unknown>[]);
    }
    return digestTables(tables, without);
  } finally {
    await client.end();
  }
}

/** Both engines; OUTPOINT_TEST_ENGINES=sqlite (or postgres) narrows a local run while developing (CI runs both). */
export function testEngines(): EngineName[] {
  const chosen = process.env['OUTPOINT_TEST_ENGINES']?.split(',').filter((e): e is EngineName => e === 'sqlite' || e === 'postgres');
  return chosen && chosen.length > 0 ? chosen : ['sqlite', 'postgres'];
}
