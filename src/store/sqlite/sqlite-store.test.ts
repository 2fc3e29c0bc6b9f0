import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StoreHarness, type TestDatabase, plainRows } from '../conformance/harness.js';
import { runStoreConformance } from '../conformance/run-store-conformance.js';
import { SqliteStore } from './sqlite-store.js';

const harness: StoreHarness = {
  async create(options = {}): Promise<TestDatabase> {
    const dir = mkdtempSync(join(tmpdir(), 'outpoint-sqlite-'));
    const path = join(dir, 'store.db');
    let store = new SqliteStore({ path, ...options });
    const db: TestDatabase = {
      get store() { return store; },
      engine: 'sqlite',
      async dump() {
        const tables = store.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
        return Object.fromEntries(tables.map(({ name }) => [name, plainRows(store.connection.prepare(`SELECT * FROM ${name}`).all() as Record<string, unknown>[])]));
      },
      async setSchemaVersion(version) {
        store.connection.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
      },
      async exec(sql, params) {
        if (params) store.connection.prepare(sql).run(...params);
        else store.connection.exec(sql);
      },
      async reopen() {
        await store.close();
        store = new SqliteStore({ path, ...options });
        return store;
      },
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return db;
  },
};

runStoreConformance('SQLite', harness);
