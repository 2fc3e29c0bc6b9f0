-- Outpoint schema version 1 (SQLite). See docs/schema.md for why each table and index exists.
-- Sums that can exceed 2^63 (script totals, block fees/reward/value_out) are TEXT decimals updated with JS bigint.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE tips (net INTEGER PRIMARY KEY, height INTEGER NOT NULL, hash BLOB NOT NULL);

CREATE TABLE blocks (
  net INTEGER NOT NULL, hash BLOB NOT NULL, height INTEGER NOT NULL, is_orphan INTEGER NOT NULL,
  prev_hash BLOB NOT NULL, merkle_root BLOB NOT NULL, version INTEGER NOT NULL, time INTEGER NOT NULL,
  bits INTEGER NOT NULL, nonce INTEGER NOT NULL, size INTEGER NOT NULL, stripped_size INTEGER NOT NULL,
  weight INTEGER NOT NULL, tx_count INTEGER NOT NULL,
  fees TEXT NOT NULL, reward TEXT NOT NULL, value_out TEXT NOT NULL,
  txids BLOB NOT NULL
);
CREATE UNIQUE INDEX blocks_by_hash ON blocks (net, hash);
CREATE UNIQUE INDEX blocks_main_by_height ON blocks (net, height) WHERE is_orphan = 0;

CREATE TABLE scripts (
  id INTEGER PRIMARY KEY, net INTEGER NOT NULL, script BLOB NOT NULL,
  received TEXT NOT NULL DEFAULT '0', sent TEXT NOT NULL DEFAULT '0',
  tx_count INTEGER NOT NULL DEFAULT 0, received_count INTEGER NOT NULL DEFAULT 0, sent_count INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX scripts_by_script ON scripts (net, script);

CREATE TABLE txs (
  net INTEGER NOT NULL, txid BLOB NOT NULL, block_hash BLOB NOT NULL, height INTEGER, position INTEGER NOT NULL,
  raw BLOB NOT NULL, size INTEGER NOT NULL, vsize INTEGER NOT NULL, weight INTEGER NOT NULL,
  fee INTEGER, is_coinbase INTEGER NOT NULL, prevouts BLOB NOT NULL, first_seen INTEGER
);
CREATE UNIQUE INDEX txs_by_txid ON txs (net, txid);

CREATE TABLE outputs (
  net INTEGER NOT NULL, txid BLOB NOT NULL, vout INTEGER NOT NULL, value INTEGER NOT NULL,
  script_id INTEGER NOT NULL, height INTEGER NOT NULL, position INTEGER NOT NULL,
  spent_txid BLOB, spent_vin INTEGER,
  PRIMARY KEY (net, txid, vout)
) WITHOUT ROWID;
CREATE INDEX outputs_unspent_by_script ON outputs (script_id, height, position, vout) WHERE spent_txid IS NULL;

CREATE TABLE history (
  script_id INTEGER NOT NULL, height INTEGER NOT NULL, position INTEGER NOT NULL, io INTEGER NOT NULL,
  n INTEGER NOT NULL, txid BLOB NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (script_id, height, position, io, n)
) WITHOUT ROWID;

CREATE TABLE mempool_txs (
  net INTEGER NOT NULL, txid BLOB NOT NULL, raw BLOB NOT NULL, size INTEGER NOT NULL, vsize INTEGER NOT NULL,
  weight INTEGER NOT NULL, fee INTEGER NOT NULL, seen_at INTEGER NOT NULL, prevouts BLOB NOT NULL,
  double_spent INTEGER NOT NULL, removed INTEGER NOT NULL
);
CREATE UNIQUE INDEX mempool_txs_by_txid ON mempool_txs (net, txid);

CREATE TABLE mempool_outputs (
  net INTEGER NOT NULL, txid BLOB NOT NULL, vout INTEGER NOT NULL, value INTEGER NOT NULL, script_id INTEGER NOT NULL,
  PRIMARY KEY (net, txid, vout)
) WITHOUT ROWID;
CREATE INDEX mempool_outputs_by_script ON mempool_outputs (script_id);

CREATE TABLE mempool_spends (
  net INTEGER NOT NULL, prev_txid BLOB NOT NULL, prev_vout INTEGER NOT NULL, txid BLOB NOT NULL, vin INTEGER NOT NULL,
  script_id INTEGER NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (net, prev_txid, prev_vout, txid)
) WITHOUT ROWID;
CREATE INDEX mempool_spends_by_script ON mempool_spends (script_id);
