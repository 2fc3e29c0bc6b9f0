/**
 * The chain tables of one network (schema "compact chain", docs/schema.md). Every network has its own set, so an
 * initial sync of one network can drop and rebuild that network's secondary indexes while the others keep serving,
 * and no key carries a network column.
 *
 * Transactions are numbered: `id` counts a network's confirmed txs in chain order from 0 and is never reused (a block
 * connected again after a reorg gets its old range back, which keeps main-chain ids in chain order). Every other
 * table refers to a tx by id (4-6 bytes) instead of its 32-byte txid, and a block names its txs as the id range
 * [first_tx, first_tx + tx_count). Scripts are keyed by a 53-bit keyed hash of their bytes (script-keys.ts), so
 * writing an output needs no lookup to number its script.
 *
 * This file is the one place the DDL lives: migrations create the tables and indexes from it, and the bulk loader
 * drops and re-creates the deferred indexes from it.
 */
import type { NetworkId } from '../../../core/domain/network.js';
import { postgresScriptHashExpression, SQLITE_SCRIPT_HASH_FUNCTION } from './script-hash-keys.js';

export type Engine = 'sqlite' | 'postgres';

export interface ChainTables {
  readonly blocks: string;
  readonly txs: string;
  /** Raw bytes of confirmed txs, apart from `txs` so that reading many txs' ids and txids reads small rows. */
  readonly txRaws: string;
  readonly outputs: string;
  readonly history: string;
  readonly scripts: string;
  readonly mempoolTxs: string;
  readonly mempoolOutputs: string;
  readonly mempoolSpends: string;
  /** The live mempool's count and sums in one row, kept by triggers (mempool-stats.ts). */
  readonly mempoolStats: string;
  /** Bulk load only: spends of outputs created by an earlier batch, resolved when the load ends. */
  readonly bulkPending: string;
  /** Bulk load only: (key, first output id, script) of scripts not seen recently; deduplicated when the load ends. */
  readonly bulkScripts: string;
  /** SQLite only: (prefix of sha256(script), script key), the scripthash index (script-hash-keys.ts). */
  readonly scriptHashes: string;
}

export function chainTables(id: NetworkId): ChainTables {
  const n = id.toLowerCase();
  return {
    blocks: `blocks_${n}`, txs: `txs_${n}`, txRaws: `tx_raws_${n}`, outputs: `outputs_${n}`, history: `history_${n}`, scripts: `scripts_${n}`,
    mempoolTxs: `mempool_txs_${n}`, mempoolOutputs: `mempool_outputs_${n}`, mempoolSpends: `mempool_spends_${n}`, mempoolStats: `mempool_stats_${n}`,
    bulkPending: `bulk_pending_${n}`, bulkScripts: `bulk_scripts_${n}`, scriptHashes: `script_hashes_${n}`,
  };
}

/** Column types per engine: SQLite stores what it is given; PostgreSQL needs exact types (NUMERIC for sums). */
function types(engine: Engine): { blob: string; int: string; big: string; bool: string; sum: string; noRowid: string } {
  return engine === 'sqlite'
    ? { blob: 'BLOB', int: 'INTEGER', big: 'INTEGER', bool: 'INTEGER', sum: 'TEXT', noRowid: ' WITHOUT ROWID' }
    : { blob: 'BYTEA', int: 'INTEGER', big: 'BIGINT', bool: 'BOOLEAN', sum: 'NUMERIC(40,0)', noRowid: '' };
}

/** The tables of one network, with the keys they are written in (no secondary index: see deferredIndexes). */
export function chainTablesSql(engine: Engine, id: NetworkId): string {
  const t = chainTables(id);
  const { blob, int, big, bool, sum, noRowid } = types(engine);
  // Script totals: SQLite stores an INTEGER while it fits 64 bits and a TEXT decimal beyond (Dogecoin sums can pass
  // 2^63 koinu; SQLite would silently turn an overflowing integer into a float). PostgreSQL: NUMERIC.
  // The SQLite columns have no declared type (BLOB affinity), so a TEXT decimal is never converted to a lossy REAL.
  const total = engine === 'sqlite' ? '' : ` ${sum}`;
  return `
CREATE TABLE ${t.blocks} (
  hash ${blob} PRIMARY KEY, height ${int} NOT NULL, is_orphan ${bool} NOT NULL, prev_hash ${blob} NOT NULL,
  merkle_root ${blob} NOT NULL, version ${big} NOT NULL, time ${big} NOT NULL, bits ${big} NOT NULL, nonce ${big} NOT NULL,
  size ${int} NOT NULL, stripped_size ${int} NOT NULL, weight ${int} NOT NULL, tx_count ${int} NOT NULL,
  first_tx ${big} NOT NULL, fees ${sum}, reward ${sum} NOT NULL, value_out ${sum} NOT NULL
)${noRowid};
CREATE UNIQUE INDEX ${t.blocks}_main_by_height ON ${t.blocks} (height) WHERE ${engine === 'sqlite' ? 'is_orphan = 0' : 'NOT is_orphan'};
CREATE UNIQUE INDEX ${t.blocks}_by_first_tx ON ${t.blocks} (first_tx);
CREATE TABLE ${t.txs} (
  id ${big} NOT NULL${engine === 'sqlite' ? ' PRIMARY KEY' : ''}, txid ${blob} NOT NULL, size ${int} NOT NULL, weight ${int} NOT NULL,
  first_seen ${big}, orphan_prevouts ${blob}, orphan_fee ${big}
);
CREATE TABLE ${t.txRaws} (id ${big} NOT NULL${engine === 'sqlite' ? ' PRIMARY KEY' : ''}, raw ${blob} NOT NULL);
CREATE TABLE ${t.outputs} (
  id ${big} NOT NULL, vout ${int} NOT NULL, value ${big} NOT NULL, script ${big} NOT NULL, spent_by ${big}, spent_vin ${int}${
  engine === 'sqlite' ? ',\n  PRIMARY KEY (id, vout)' : ''}
)${noRowid};
CREATE TABLE ${t.history} (
  script ${big} NOT NULL, id ${big} NOT NULL, flags ${int} NOT NULL${engine === 'sqlite' ? ',\n  PRIMARY KEY (script, id)' : ''}
)${noRowid};
CREATE TABLE ${t.scripts} (
  key ${big} NOT NULL${engine === 'sqlite' ? ' PRIMARY KEY' : ''}, script ${blob} NOT NULL,
  received${total} NOT NULL, sent${total} NOT NULL,
  tx_count ${big} NOT NULL, received_count ${big} NOT NULL, sent_count ${big} NOT NULL
);
CREATE TABLE ${t.mempoolTxs} (
  txid ${blob} PRIMARY KEY, size ${int} NOT NULL, weight ${int} NOT NULL, fee ${big} NOT NULL, seen_at ${big} NOT NULL,
  prevouts ${blob} NOT NULL, double_spent ${bool} NOT NULL, removed ${bool} NOT NULL, removed_at ${big}, raw ${blob} NOT NULL
);
CREATE INDEX ${t.mempoolTxs}_removed_by_time ON ${t.mempoolTxs} (removed_at) WHERE ${engine === 'sqlite' ? 'removed = 1' : 'removed'};
CREATE TABLE ${t.mempoolOutputs} (
  txid ${blob} NOT NULL, vout ${int} NOT NULL, value ${big} NOT NULL, script ${big} NOT NULL, PRIMARY KEY (txid, vout)
)${noRowid};
CREATE TABLE ${t.mempoolSpends} (
  prev_txid ${blob} NOT NULL, prev_vout ${int} NOT NULL, txid ${blob} NOT NULL, vin ${int} NOT NULL, script ${big} NOT NULL,
  value ${big} NOT NULL, PRIMARY KEY (prev_txid, prev_vout, txid)
)${noRowid};
${mempoolScriptIndexes(t).map((sql) => `${sql};`).join('\n')}${engine === 'sqlite' ? `
CREATE TABLE ${t.scriptHashes} (hash INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (hash, key)) WITHOUT ROWID;` : ''}
${deferredIndexes(engine, id).map((i) => `${i.create};`).join('\n')}
`;
}

/**
 * The mempool's lookups by script, with the value in the key (schema version 14): a balance sums a script's mempool
 * outputs and spends from the index alone (the txid is in it too, as the rest of the primary key), where reading each
 * row's value cost a hot address with hundreds of mempool txs milliseconds a balance (docs/benchmarks.md, "The tip at
 * mainnet size").
 */
export function mempoolScriptIndexes(t: ChainTables): string[] {
  return [
    `CREATE INDEX ${t.mempoolOutputs}_by_script ON ${t.mempoolOutputs} (script, value)`,
    `CREATE INDEX ${t.mempoolSpends}_by_script ON ${t.mempoolSpends} (script, value)`,
  ];
}

export interface DeferredIndex {
  readonly name: string;
  readonly create: string;
  readonly drop: string;
}

/**
 * The indexes an initial (bulk) load leaves out and builds at its end, in build order. SQLite tables are B-trees
 * clustered by their primary key, which the loader appends in key order (txs, outputs) or builds at the end
 * (history, scripts): only true secondary indexes are deferred. PostgreSQL tables are heaps, so every key is an index
 * there and all of them are deferred.
 */
export function deferredIndexes(engine: Engine, id: NetworkId): DeferredIndex[] {
  const t = chainTables(id);
  const index = (name: string, create: string): DeferredIndex => ({ name, create, drop: `DROP INDEX IF EXISTS ${name}` });
  const key = (table: string, cols: string): DeferredIndex => ({
    name: `${table}_pkey`,
    create: `ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${cols})`,
    drop: `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_pkey`,
  });
  // Lookup by txid goes through its first 8 bytes (random, so as selective as the whole): half the index size.
  const byTxid = engine === 'sqlite'
    ? index(`${t.txs}_by_txid`, `CREATE INDEX ${t.txs}_by_txid ON ${t.txs} (substr(txid, 1, 8))`)
    : index(`${t.txs}_by_txid`, `CREATE INDEX ${t.txs}_by_txid ON ${t.txs} (substring(txid from 1 for 8))`);
  const unspent = index(`${t.outputs}_unspent`, `CREATE INDEX ${t.outputs}_unspent ON ${t.outputs} (script, id, vout, value) WHERE spent_by IS NULL`);
  // The spender alone: every read through it also reads the row (value, script), which has spent_vin, and sorts a
  // tx's few inputs by it. Without spent_vin an entry is ~1.5 bytes smaller in SQLite (~4 B/tx) and 8 in PostgreSQL,
  // whose btree also folds a tx's entries into one. Stores made with (spent_by, spent_vin) keep it (the same reads).
  const bySpender = index(`${t.outputs}_by_spender`, `CREATE INDEX ${t.outputs}_by_spender ON ${t.outputs} (spent_by) WHERE spent_by IS NOT NULL`);
  if (engine === 'sqlite') return [byTxid, bySpender, unspent, scriptHashIndex(engine, id)];
  return [key(t.txs, 'id'), key(t.txRaws, 'id'), byTxid, key(t.outputs, 'id, vout'), bySpender, unspent, key(t.history, 'script, id'), key(t.scripts, 'key'),
    scriptHashIndex(engine, id)];
}

/** The meta row present while an existing store's scripthash index is built in the background (its value: the progress). */
export function scriptHashBuildKey(id: NetworkId): string {
  return `script_hashes_${id.toLowerCase()}`;
}

/** SQLite's trigger that keeps the scripthash table as script rows are inserted (script rows are never updated or deleted). */
export function scriptHashTriggerSql(id: NetworkId): string {
  const t = chainTables(id);
  return `CREATE TRIGGER IF NOT EXISTS ${t.scripts}_hash AFTER INSERT ON ${t.scripts} BEGIN
  INSERT OR IGNORE INTO ${t.scriptHashes} (hash, key) VALUES (${SQLITE_SCRIPT_HASH_FUNCTION}(NEW.script), NEW.key); END`;
}

/**
 * The scripthash index (script-hash-keys.ts) as a deferred index: an initial load or a snapshot import builds it whole
 * at the end, in key order, and making it says the index is complete (no background build left). SQLite: the table in
 * one sorted insert and the trigger that keeps it; PostgreSQL: an expression index over the script rows.
 */
function scriptHashIndex(engine: Engine, id: NetworkId): DeferredIndex {
  const t = chainTables(id);
  const name = `${t.scripts}_by_hash`;
  const complete = `DELETE FROM meta WHERE key = '${scriptHashBuildKey(id)}'`;
  if (engine === 'postgres') {
    return { name, create: `CREATE INDEX ${name} ON ${t.scripts} (${postgresScriptHashExpression('script')}); ${complete}`, drop: `DROP INDEX IF EXISTS ${name}` };
  }
  return {
    name,
    create: `INSERT OR IGNORE INTO ${t.scriptHashes} (hash, key) SELECT ${SQLITE_SCRIPT_HASH_FUNCTION}(script), key FROM ${t.scripts} ORDER BY 1, 2;
${scriptHashTriggerSql(id)}; ${complete}`,
    drop: `DROP TRIGGER IF EXISTS ${t.scripts}_hash; DELETE FROM ${t.scriptHashes}`,
  };
}
