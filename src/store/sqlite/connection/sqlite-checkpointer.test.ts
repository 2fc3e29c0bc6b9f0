import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { openSqliteDatabase } from './sqlite-binding.js';
import { WalCheckpointer } from './sqlite-checkpointer.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-checkpointer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function writer(name: string): { db: ReturnType<typeof openSqliteDatabase>; path: string; write(mb: number): void } {
  const path = join(dir, name);
  const db = openSqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  // Commits of 64 kB, as an indexer's writes come: each one would cross the default threshold in turn.
  const write = (mb: number): void => {
    for (let i = 0; i < mb * 16; i++) db.transaction(() => insert.run(Buffer.alloc(64 * 1024, i)))();
  };
  return { db, path, write };
}

describe('WAL checkpoints on a worker thread', () => {
  it('the writing connection never checkpoints; the worker copies the log into the database file', async () => {
    const without = writer('without.db');
    without.db.pragma('wal_autocheckpoint = 0');
    without.write(8);
    // The reference: nothing checkpoints this one, so the database file holds only what migration wrote.
    assert.ok(statSync(without.path).size < 1 << 20, `${statSync(without.path).size} bytes without checkpoints`);
    without.db.close();

    const w = writer('with.db');
    const checkpointer = new WalCheckpointer(w.db, w.path, { everyMs: 20 });
    try {
      assert.equal(w.db.pragma('wal_autocheckpoint', { simple: true }), 0);
      w.write(8);
      await waitFor(() => statSync(w.path).size >= 8 << 20, 20_000, 'the worker to copy the log into the file');
      assert.equal(checkpointer.running, true);
    } finally {
      await checkpointer.stop();
      w.db.close();
    }
  });

  it('when the worker is gone the writing connection checkpoints for itself again, and says so once', async () => {
    const w = writer('failing.db');
    const failures: Error[] = [];
    const checkpointer = new WalCheckpointer(w.db, w.path, { everyMs: 20, onFailure: (error) => failures.push(error) });
    try {
      await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await waitFor(() => !checkpointer.running, 10_000, 'the failure noticed');
      assert.equal(failures.length, 1);
      assert.equal(w.db.pragma('wal_autocheckpoint', { simple: true }), 1000);
      w.write(8);
      assert.ok(statSync(w.path).size >= 4 << 20, 'SQLite checkpointed in the commits again');
    } finally {
      await checkpointer.stop();
      w.db.close();
    }
  });

  it('stop() is not a failure', async () => {
    const w = writer('stopped.db');
    const failures: Error[] = [];
    const checkpointer = new WalCheckpointer(w.db, w.path, { everyMs: 20, onFailure: (error) => failures.push(error) });
    await checkpointer.stop();
    assert.deepEqual(failures, []);
    w.db.close();
  });
});
