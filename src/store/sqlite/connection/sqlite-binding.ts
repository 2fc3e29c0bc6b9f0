/**
 * better-sqlite3 by Node.js line. Node 24.19+ compiles an environment cleanup hook into addons built on the classic
 * `node::ObjectWrap` (better-sqlite3 12 and older); a statement finalized by the garbage collector outside a JS
 * context then aborts the process (`Assertion failed: (env) != nullptr`, nodejs/node#65446). better-sqlite3 13 is
 * a Node-API addon without that problem and ships prebuilt binaries, but needs Node 22 or newer (it crashes on 20).
 * So Node 22+ loads `better-sqlite3` (13) and Node 20 loads `better-sqlite3-node20` (12, an npm alias compiled at
 * install). Both have the same API and the same bundled SQLite build options. Drop the alias with Node 20.
 */
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { SQLITE_SCRIPT_HASH_FUNCTION, sqliteScriptHashOf } from '../../common/schema/script-hash-keys.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
export const SQLITE_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

const DatabaseClass = createRequire(import.meta.url)(SQLITE_PACKAGE) as typeof BetterSqlite3;

/**
 * Opens (or creates) a database file, with the store's SQL function registered; `:memory:` for a private in-memory one. A new file is created owner-only
 * (0600) before SQLite opens it: the store holds password hashes, session hashes and the script-key salt, and
 * SQLite gives its -wal and -shm files the database file's own permissions (whatever the umask says).
 */
export function openSqliteDatabase(path: string, options: BetterSqlite3.Options = {}): BetterSqlite3.Database {
  if (path !== ':memory:' && path !== '' && !options.readonly) closeSync(openSync(path, 'a', 0o600));
  const db = new DatabaseClass(path, options);
  // The scripthash index's trigger and reads call it (script-hash-keys.ts): every connection that may insert a script
  // row or look one up by hash has it, whoever opened it.
  db.function(SQLITE_SCRIPT_HASH_FUNCTION, { deterministic: true }, sqliteScriptHashOf);
  return db;
}
