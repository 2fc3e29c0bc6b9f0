import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from './sqlite-binding.js';
import { PageReturner } from './sqlite-page-return.js';

function fileWithFreePages(path: string): Database.Database {
  const db = openSqliteDatabase(path);
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE bulk_loads (net INTEGER); CREATE TABLE keep (x); INSERT INTO keep VALUES (1); CREATE TABLE staging (b BLOB)');
  const insert = db.prepare('INSERT INTO staging VALUES (randomblob(3000))');
  db.transaction(() => { for (let i = 0; i < 3000; i++) insert.run(); })();
  db.exec('DROP TABLE staging');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

test('free pages go back in chunks, not during a bulk load, and the file shrinks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-pages-'));
  const path = join(dir, 'f.db');
  const db = fileWithFreePages(path);
  try {
    const returner = new PageReturner(db, 256, 5);
    const free = returner.freePages();
    assert.ok(free > 2000, `free pages ${free}`);
    const before = statSync(path).size;
    // While a bulk load appends (its worker writes the same file), nothing moves.
    db.exec('INSERT INTO bulk_loads VALUES (1)');
    assert.equal(returner.step(), true);
    assert.equal(returner.freePages(), free);
    db.exec('DELETE FROM bulk_loads');
    // One chunk at a time: a step gives back at most its chunk.
    assert.equal(returner.step(), true);
    assert.equal(returner.freePages(), free - 256);
    returner.start();
    for (let i = 0; i < 400 && returner.freePages() > 0; i++) await delay(10);
    assert.equal(returner.freePages(), 0);
    assert.equal(returner.step(), false);
    db.pragma('wal_checkpoint(TRUNCATE)');
    assert.ok(statSync(path).size < before / 4, `${statSync(path).size} of ${before} bytes`);
    assert.deepEqual(db.prepare('SELECT x FROM keep').all(), [{ x: 1 }]);
    returner.stop();
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a clean stop gives back a small remainder at once, not a large one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-pages-'));
  const db = fileWithFreePages(join(dir, 'f.db'));
  try {
    const returner = new PageReturner(db);
    const free = returner.freePages();
    returner.finish(free - 1);
    assert.equal(returner.freePages(), free, 'more than the bound: left for the next start');
    returner.finish(free);
    assert.equal(returner.freePages(), 0);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
