/** openStore passes `[store] sqlite_cache_mb` to the SQLite connection (and nothing SQLite-only to PostgreSQL). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { openStore } from './open-store.js';

test('sqlite_cache_mb sets the connection\'s page cache; without it the 128 MiB default', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-open-store-'));
  try {
    for (const [cacheMb, expected] of [[undefined, -128 * 1024], [1024, -1024 * 1024]] as const) {
      const store = openStore(`sqlite:${join(dir, `store-${cacheMb ?? 'default'}.db`)}`, cacheMb ? { sqliteCacheMb: cacheMb } : {}) as SqliteStore;
      try {
        assert.equal(Number(store.connection.pragma('cache_size', { simple: true })), expected);
      } finally {
        await store.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
