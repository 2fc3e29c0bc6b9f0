import { postgresScriptHashExpression, postgresScriptHashKey, sqliteScriptHashKey } from '../schema/script-hash-keys.js';

/**
 * The few spots where the engines' SQL differs inside a statement both otherwise share (sql-plan.ts). Everything
 * else in shared SQL is written in the common subset: `?` placeholders, `LIMIT ? + 0`, a tx's block by a scalar
 * subquery, `CAST(? AS BIGINT)` for a null that must have a type.
 */
export interface SqlDialect {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Flag literals. SQLite compares with 0 and 1, which its partial indexes are declared with (`WHERE is_orphan = 0`:
   * SQLite matches an index's condition by its terms, and FALSE is another term); PostgreSQL folds `= FALSE` to the
   * `NOT is_orphan` of its indexes.
   */
  readonly no: string;
  readonly yes: string;
  /**
   * The condition that `column` (a txid) equals the txid bound twice here (`[txid, txid]`), through the index on its
   * first 8 bytes (declared per engine in chain-tables.ts: `substr` in SQLite, `substring … from … for` in PostgreSQL).
   */
  txidIs(column: string): string;
  /**
   * `column` (a txid) has its first 8 bytes between the two 8-byte values bound here: a range of the same index
   * (prefix search; test/integration/prefix-search-plans.test.ts checks both engines plan it as an index range).
   */
  txidKeyBetween(column: string): string;
  /** `column` is one of the values of the list bound at this `?` (SQLite: a JSON array; PostgreSQL: a bigint[]). */
  inList(column: string): string;
  /** The bound value of such a list. */
  list(values: readonly number[]): unknown;
  /**
   * `column` (a 32-byte hash) is one of the hashes bound at this `?` (SQLite: a JSON array of hex, each `unhex`ed;
   * PostgreSQL: a bytea[]), looked up by the column's index, one probe per hash.
   */
  inHashList(column: string): string;
  /** The bound value of such a list (lower-case hex hashes). */
  hashList(hexes: readonly string[]): unknown;
  /**
   * The database's clock in whole unix seconds, rounded down as SQLite's strftime('%s') (PostgreSQL's bare cast to
   * bigint would round half up): the mempool removal paths are not given the indexer's clock.
   */
  readonly now: string;
  /**
   * The script rows (`key`, `script`) whose scripthash key equals the one bound here, through the scripthash index
   * (script-hash-keys.ts: SQLite's table of keys, PostgreSQL's expression index).
   */
  scriptsByHash(tables: { readonly scripts: string; readonly scriptHashes: string }): string;
  /** The bound key of a sha256 (32 bytes, natural order) for scriptsByHash. */
  scriptHashKey(sha256: Uint8Array): unknown;
}

export const SQLITE_DIALECT: SqlDialect = {
  engine: 'sqlite',
  no: '0',
  yes: '1',
  txidIs: (column) => `substr(${column}, 1, 8) = substr(?, 1, 8) AND ${column} = ?`,
  txidKeyBetween: (column) => `substr(${column}, 1, 8) BETWEEN ? AND ?`,
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  list: (values) => JSON.stringify(values),
  inHashList: (column) => `${column} IN (SELECT unhex(value) FROM json_each(?))`,
  hashList: (hexes) => JSON.stringify(hexes),
  now: "CAST(strftime('%s', 'now') AS INTEGER)",
  scriptsByHash: (t) => `SELECT s.key, s.script FROM ${t.scriptHashes} h JOIN ${t.scripts} s ON s.key = h.key WHERE h.hash = ?`,
  scriptHashKey: sqliteScriptHashKey,
};

export const POSTGRES_DIALECT: SqlDialect = {
  engine: 'postgres',
  no: 'FALSE',
  yes: 'TRUE',
  txidIs: (column) => `substring(${column} from 1 for 8) = substring(CAST(? AS BYTEA) from 1 for 8) AND ${column} = ?`,
  txidKeyBetween: (column) => `substring(${column} from 1 for 8) BETWEEN CAST(? AS BYTEA) AND CAST(? AS BYTEA)`,
  inList: (column) => `${column} = ANY(CAST(? AS BIGINT[]))`,
  list: (values) => values,
  inHashList: (column) => `${column} = ANY(CAST(? AS BYTEA[]))`,
  hashList: (hexes) => hexes.map((hex) => Buffer.from(hex, 'hex')),
  now: 'floor(EXTRACT(EPOCH FROM now()))::bigint',
  scriptsByHash: (t) => `SELECT key, script FROM ${t.scripts} WHERE ${postgresScriptHashExpression('script')} = CAST(? AS BIGINT)`,
  scriptHashKey: postgresScriptHashKey,
};
