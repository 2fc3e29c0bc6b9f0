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
import { unpackPrevouts } from '../../src/store/common/codec.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteDatabase } from '../../src/store/sqlite/sqlite-binding.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

export type EngineName = 'sqlite' | 'postgres';

export interface TestStore {
  readonly engine: EngineName;
  /** The store URL as configured (`sqlite:…` or `postgres://…`). */
  readonly url: string;
  readonly store: ChainStore;
  /** sha256 over every table's rows in a canonical order. */
  digest(): Promise<string>;
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
  async create(engine: EngineName): Promise<TestStore> {
    const test = engine === 'sqlite' ? this.createSqlite() : await this.createPostgres();
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

  private createSqlite(): TestStore {
    const dir = mkdtempSync(join(tmpdir(), 'outpoint-sqlite-'));
    this.dirs.push(dir);
    const path = join(dir, 'outpoint.db');
    const holder = { store: new SqliteStore({ path }) as ChainStore };
    return {
      engine: 'sqlite',
      url: `sqlite:${path}`,
      get store() {
        return holder.store;
      },
      digest: () => Promise.resolve(sqliteDigest(path)),
      async reopen() {
        await holder.store.close();
        holder.store = new SqliteStore({ path });
        return holder.store;
      },
    };
  }

  private async createPostgres(): Promise<TestStore> {
    if (!this.server) {
      this.server = await startPostgres();
      this.admin = new pg.Client({ connectionString: this.server.url });
      await this.admin.connect();
    }
    const name = `outpoint_it_${process.pid}_${++this.counter}`;
    await this.admin!.query(`CREATE DATABASE ${name}`);
    const url = this.server.urlFor(name);
    const holder = { store: new PostgresStore({ connectionString: url, maxConnections: 4 }) as ChainStore };
    return {
      engine: 'postgres',
      url,
      get store() {
        return holder.store;
      },
      digest: () => postgresDigest(url),
      async reopen() {
        await holder.store.close();
        holder.store = new PostgresStore({ connectionString: url, maxConnections: 4 });
        return holder.store;
      },
    };
  }
}

/**
 * Script ids are surrogate keys: PostgreSQL sequences advance even in rolled-back transactions, so
 * two equal indexes may number scripts differently. The digest compares scripts, not their ids.
 */
function canonicalRow(row: Record<string, unknown>, scripts: Map<string, string>): string {
  return Object.keys(row)
    .sort()
    .flatMap((k) => {
      if (k === 'id' && 'script' in row) return [];
      if (k === 'script_id') return [`script=${scripts.get(canonical(row[k])) ?? `?${canonical(row[k])}`}`];
      if (k === 'prevouts' && row[k] instanceof Uint8Array) {
        const prevouts = unpackPrevouts(row[k]).map((p) => (p ? `${p.txid}:${p.vout}:${p.value}:${scripts.get(String(p.scriptId))}` : 'coinbase'));
        return [`prevouts=${prevouts.join(',')}`];
      }
      return [`${k}=${canonical(row[k])}`];
    })
    .join('|');
}

function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value);
}

function sqliteDigest(path: string): string {
  const db = openSqliteDatabase(path, { readonly: true });
  db.defaultSafeIntegers(true);
  try {
    const hash = createHash('sha256');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
    const scripts = new Map((db.prepare('SELECT id, script FROM scripts').all() as { id: unknown; script: unknown }[]).map((r) => [canonical(r.id), canonical(r.script)]));
    for (const { name } of tables) {
      const rows = (db.prepare(`SELECT * FROM ${name}`).all() as Record<string, unknown>[]).map((row) => canonicalRow(row, scripts));
      rows.sort();
      hash.update(`${name}\n${rows.join('\n')}\n`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

async function postgresDigest(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const hash = createHash('sha256');
    const tables = await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
    const scriptRows = (await client.query('SELECT id, script FROM scripts')).rows as { id: unknown; script: unknown }[];
    const scripts = new Map(scriptRows.map((r) => [canonical(r.id), canonical(r.script)]));
    for (const { tablename } of tables.rows as { tablename: string }[]) {
      const result = await client.query(`SELECT * FROM ${tablename}`);
      const rows = (result.rows as Record<string, unknown>[]).map((row) => canonicalRow(row, scripts));
      rows.sort();
      hash.update(`${tablename}\n${rows.join('\n')}\n`);
    }
    return hash.digest('hex');
  } finally {
    await client.end();
  }
}
