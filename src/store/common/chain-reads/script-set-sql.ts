/**
 * The statements of the script-set reads (core/script-set-reads.ts), one text for both engines: `?` placeholders (the
 * PostgreSQL driver numbers them), LIMIT/OFFSET as `? + 0` (SQLite keeps its plan; PostgreSQL takes an expression),
 * a tx's block by the scalar subquery both understand. The one difference is how a list of keys or ids is bound:
 * SQLite reads a JSON array through json_each, PostgreSQL a bigint[] through ANY.
 */
import type { ChainTables } from '../schema/chain-tables.js';

export interface SetDialect {
  /** `column` is one of the values of the list bound at this `?`. */
  inList(column: string): string;
  /** The bound value of such a list. */
  list(values: readonly number[]): unknown;
}

export const SQLITE_SET: SetDialect = {
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  list: (values) => JSON.stringify(values),
};

export const POSTGRES_SET: SetDialect = {
  inList: (column) => `${column} = ANY(?::bigint[])`,
  list: (values) => values,
};

export interface ScriptSetSql {
  /** [keys]: the script rows at these keys. */
  readonly scriptRows: string;
  /** [keys]: only their keys and bytes (reads that need no totals skip reading and converting them). */
  readonly scriptKeyRows: string;
  /** [key]: one script row (probing past a collision). */
  readonly scriptRow: string;
  /** [keys, keys]: the live mempool's outputs paying and inputs spending from these scripts. */
  readonly mempoolIo: string;
  /** [net]: the chain's tip (what the confirmed ids of a set are kept under). */
  readonly tip: string;
  /** [keys]: the distinct confirmed tx ids of the scripts, newest first. */
  readonly confirmedIds: string;
  /**
   * [keys, keys]: over the scripts' confirmed txs, the sum of each tx's positive net (paid to the scripts minus spent
   * from them) and of its negative net negated, each as `_high` (÷ 10^9) and `_low` (mod 10^9); NULL when there are none.
   */
  readonly flows: string;
  /** [ids]: those txs' txids and blocks. */
  readonly txsOfIds: string;
  /** [ids, keys, ids, keys]: their outputs paying the scripts and their inputs spending from them. */
  readonly ioOfIds: string;
  /** [keys, limit, offset]: a page of confirmed unspent outputs, oldest first, none spent in the mempool. */
  readonly unspentPage: string;
  /** [keys]: how many there are. */
  readonly unspentCount: string;
  /** [keys]: the live mempool's outputs paying the scripts that no mempool tx spends. */
  readonly mempoolUnspent: string;
}

const cache = new Map<string, ScriptSetSql>();

export function scriptSetSql(t: ChainTables, d: SetDialect): ScriptSetSql {
  const id = `${t.txs}:${d.inList('x')}`;
  const known = cache.get(id);
  if (known) return known;
  const blockOf = (txId: string): string =>
    `JOIN ${t.blocks} b ON b.first_tx = (SELECT first_tx FROM ${t.blocks} WHERE first_tx <= ${txId} ORDER BY first_tx DESC LIMIT 1)`;
  const notSpentInMempool = (txid: string, vout: string): string =>
    `NOT EXISTS (SELECT 1 FROM ${t.mempoolSpends} m WHERE m.prev_txid = ${txid} AND m.prev_vout = ${vout})`;
  const confirmedUnspent = `FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
    WHERE ${d.inList('o.script')} AND o.spent_by IS NULL AND ${notSpentInMempool('tx.txid', 'o.vout')}`;
  const sql: ScriptSetSql = {
    scriptRows: `SELECT key, script, received, sent, tx_count, received_count, sent_count FROM ${t.scripts} WHERE ${d.inList('key')}`,
    scriptKeyRows: `SELECT key, script FROM ${t.scripts} WHERE ${d.inList('key')}`,
    scriptRow: `SELECT key, script, received, sent, tx_count, received_count, sent_count FROM ${t.scripts} WHERE key = ?`,
    mempoolIo: `SELECT o.script AS key, x.txid, x.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM ${t.mempoolOutputs} o
        JOIN ${t.mempoolTxs} x ON x.txid = o.txid WHERE ${d.inList('o.script')}
      UNION ALL SELECT s.script AS key, x.txid, x.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM ${t.mempoolSpends} s
        JOIN ${t.mempoolTxs} x ON x.txid = s.txid WHERE ${d.inList('s.script')}`,
    tip: 'SELECT hash, height FROM tips WHERE net = ?',
    confirmedIds: `SELECT DISTINCT id FROM ${t.history} WHERE ${d.inList('script')} ORDER BY id DESC`,
    // Each history row (script, tx) joins that tx's outputs paying the script and its inputs spending from it (by the
    // spender index); a tx touching several scripts of the set has one row each, over different outputs. The sums are
    // split at 10^9 so that SQLite's 64-bit SUM cannot overflow (Dogecoin amounts can pass 2^63 koinu in total).
    flows: `SELECT SUM(CASE WHEN net > 0 THEN net / 1000000000 ELSE 0 END) AS received_high,
        SUM(CASE WHEN net > 0 THEN net % 1000000000 ELSE 0 END) AS received_low,
        SUM(CASE WHEN net < 0 THEN -net / 1000000000 ELSE 0 END) AS sent_high,
        SUM(CASE WHEN net < 0 THEN -net % 1000000000 ELSE 0 END) AS sent_low
      FROM (SELECT id, CAST(SUM(v) AS BIGINT) AS net FROM (
          SELECT h.id, o.value AS v FROM ${t.history} h JOIN ${t.outputs} o ON o.id = h.id AND o.script = h.script WHERE ${d.inList('h.script')}
          UNION ALL SELECT h.id, -o.value AS v FROM ${t.history} h JOIN ${t.outputs} o ON o.spent_by = h.id AND o.script = h.script WHERE ${d.inList('h.script')}
        ) io GROUP BY id) nets`,
    txsOfIds: `SELECT tx.id, tx.txid, b.height, b.first_tx, b.time FROM ${t.txs} tx ${blockOf('tx.id')} WHERE ${d.inList('tx.id')}`,
    ioOfIds: `SELECT id, 0 AS io, vout AS n, value FROM ${t.outputs} WHERE ${d.inList('id')} AND ${d.inList('script')}
      UNION ALL SELECT spent_by AS id, 1 AS io, spent_vin AS n, value FROM ${t.outputs} WHERE ${d.inList('spent_by')} AND ${d.inList('script')}`,
    unspentPage: `SELECT u.txid, u.vout, u.value, u.key, b.height, b.time
      FROM (SELECT tx.txid, o.id, o.vout, o.value, o.script AS key ${confirmedUnspent} ORDER BY o.id, o.vout LIMIT ? + 0 OFFSET ? + 0) u
      ${blockOf('u.id')} ORDER BY u.id, u.vout`,
    unspentCount: `SELECT COUNT(*) AS c ${confirmedUnspent}`,
    mempoolUnspent: `SELECT o.txid, o.vout, o.value, o.script AS key, x.seen_at AS time FROM ${t.mempoolOutputs} o
      JOIN ${t.mempoolTxs} x ON x.txid = o.txid WHERE ${d.inList('o.script')} AND ${notSpentInMempool('o.txid', 'o.vout')} ORDER BY o.vout`,
  };
  cache.set(id, sql);
  return sql;
}
