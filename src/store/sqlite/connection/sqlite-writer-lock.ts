/**
 * One writer per network of an SQLite file, as PostgreSQL's advisory lock gives (docs/operations.md, "Standby
 * indexers"): the writing process holds an exclusive lock on a small companion file, `<store>.writer-<NETWORK>.lock`
 * (an SQLite database kept in exclusive locking mode), for as long as it runs. The operating system drops the lock
 * when the process ends, however it ends (kill -9 included), so a standby's next attempt takes over at once; no pid
 * files, no clocks. Within one process every store of the file shares the lock (SQLite would refuse a second
 * connection of the same process too).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { WriterStandbyError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import { openSqliteDatabase } from './sqlite-binding.js';

const held = new Map<string, { readonly db: BetterSqlite3.Database; users: number }>();

/** The companion lock file of a store file for one network; null for in-memory databases (one connection only). */
export function writerLockPath(db: BetterSqlite3.Database, network: NetworkId): string | null {
  return db.memory || db.name === '' ? null : `${db.name}.writer-${network}.lock`;
}

export class SqliteWriterLock {
  #holding = false;

  constructor(private readonly path: string | null, private readonly network: NetworkId) {}

  /** Takes the lock (a no-op while held); WriterStandbyError while another process holds it. */
  hold(): void {
    if (this.#holding || this.path === null) return;
    let entry = held.get(this.path);
    if (!entry) {
      const db = openSqliteDatabase(this.path, { timeout: 0 });
      try {
        db.pragma('locking_mode = EXCLUSIVE');
        // In exclusive locking mode the lock taken by this write is kept until the connection closes.
        db.exec('BEGIN EXCLUSIVE; COMMIT');
      } catch (err) {
        db.close();
        if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new WriterStandbyError(this.network, 'its writer lock file is held');
        throw err;
      }
      entry = { db, users: 0 };
      held.set(this.path, entry);
    }
    entry.users++;
    this.#holding = true;
  }

  /** Gives this store's share back; the lock goes when the process's last store of the file lets go. */
  release(): void {
    if (!this.#holding || this.path === null) return;
    this.#holding = false;
    const entry = held.get(this.path)!;
    if (--entry.users === 0) {
      entry.db.close();
      held.delete(this.path);
    }
  }
}
