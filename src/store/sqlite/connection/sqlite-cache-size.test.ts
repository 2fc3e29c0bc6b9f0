import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteDatabase } from './sqlite-binding.js';
import { AUTO_CACHE_MAX_MB, AUTO_CACHE_MIN_MB, CacheSizer, autoCacheMb } from './sqlite-cache-size.js';

const GIB = 1024 ** 3;

test('the automatic cache grows with the index between its floor and its ceiling, and never past an eighth of RAM', () => {
  assert.equal(autoCacheMb(0, 24 * GIB), AUTO_CACHE_MIN_MB);
  assert.equal(autoCacheMb(115 * 1024 ** 2, 24 * GIB), AUTO_CACHE_MIN_MB, 'the 100k bench index keeps the floor');
  assert.equal(autoCacheMb(4 * GIB, 24 * GIB), 256, '1 MiB per 16 MiB of index');
  assert.equal(autoCacheMb(22 * GIB, 24 * GIB), AUTO_CACHE_MAX_MB, 'the 20M bench index gets the ceiling');
  assert.equal(autoCacheMb(1400 * GIB, 24 * GIB), AUTO_CACHE_MAX_MB);
  assert.equal(autoCacheMb(22 * GIB, 4 * GIB), 512, 'a 4 GiB machine gives it an eighth');
  assert.equal(autoCacheMb(22 * GIB, 512 * 1024 ** 2), AUTO_CACHE_MIN_MB, 'the floor stays on a tiny machine');
});

test('a connection gets the configured size, or the automatic one for its file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-cache-'));
  const db = openSqliteDatabase(join(dir, 'f.db'));
  try {
    db.exec('CREATE TABLE t (b BLOB); INSERT INTO t VALUES (randomblob(100000))');
    const auto = new CacheSizer(db, null, 24 * GIB);
    auto.start();
    assert.equal(auto.mb, AUTO_CACHE_MIN_MB);
    assert.equal(Number(db.pragma('cache_size', { simple: true })), -AUTO_CACHE_MIN_MB * 1024);
    auto.stop();
    const fixed = new CacheSizer(db, 64);
    fixed.start();
    assert.equal(Number(db.pragma('cache_size', { simple: true })), -64 * 1024);
    fixed.stop();
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
