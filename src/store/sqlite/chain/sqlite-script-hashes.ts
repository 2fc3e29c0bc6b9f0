/**
 * The background build of an existing SQLite store's scripthash index (docs/schema.md, "Scripthash index"): the trigger
 * indexes every script inserted since the upgrade, and these steps index the scripts stored before, in key order, up
 * to `limit` per transaction with the progress (the last key done) in the same transaction: a killed build goes on
 * from there, and a script indexed twice (by the trigger and a step) is one row.
 */
import type { ScriptHashIndexState } from '../../../core/store/script-hash-reads.js';
import { scriptHashBuildKey, scriptHashTriggerSql } from '../../common/schema/chain-tables.js';
import { SQLITE_SCRIPT_HASH_FUNCTION } from '../../common/schema/script-hash-keys.js';
import type { SqliteNet } from './sqlite-net.js';
import { num, type Row } from '../connection/sqlite-statements.js';

const READY: ScriptHashIndexState = { ready: true, progress: 1 };

/** One step, inside the caller's write transaction. */
export function buildScriptHashesSync(n: SqliteNet, limit: number): ScriptHashIndexState {
  const { st, t } = n;
  const key = scriptHashBuildKey(n.id);
  const row = st.get('SELECT value FROM meta WHERE key = ?').get(key) as Row | undefined;
  if (!row) return READY;
  const from = row.value === '' ? -1 : Number(row.value);
  // Made by the upgrade with the progress row; made again here should anything have dropped it since (a bulk load's
  // start drops it, and its end builds the index whole and removes the row).
  if (from === -1) st.db.exec(scriptHashTriggerSql(n.id));
  const span = st.get(`SELECT count(*) AS c, max(key) AS last FROM (SELECT key FROM ${t.scripts} WHERE key > ? ORDER BY key LIMIT ?)`).get(from, limit) as Row;
  const count = num(span.c);
  if (count > 0) {
    st.get(`INSERT OR IGNORE INTO ${t.scriptHashes} (hash, key) SELECT ${SQLITE_SCRIPT_HASH_FUNCTION}(script), key FROM ${t.scripts} WHERE key > ? AND key <= ?`)
      .run(from, span.last);
  }
  if (count < limit) {
    st.get('DELETE FROM meta WHERE key = ?').run(key);
    return READY;
  }
  st.get('UPDATE meta SET value = ? WHERE key = ?').run(String(span.last), key);
  return { ready: false, progress: Math.min(0.99, (num(span.last) + 1) / 2 ** n.keys.params.bits) };
}
