-- Outpoint schema version 1 (PostgreSQL). Same tables as sqlite-001-initial.sql; see docs/schema.md.
-- Sums that can exceed 2^63 are NUMERIC(40,0): exact, and updated in SQL without reading them back.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE tips (net SMALLINT PRIMARY KEY, height INTEGER NOT NULL, hash BYTEA NOT NULL);

CREATE TABLE blocks (
  net SMALLINT NOT NULL, hash BYTEA NOT NULL, height INTEGER NOT NULL, is_orphan BOOLEAN NOT NULL,
  prev_hash BYTEA NOT NULL, merkle_root BYTEA NOT NULL, version BIGINT NOT NULL, time BIGINT NOT NULL,
  bits BIGINT NOT NULL, nonce BIGINT NOT NULL, size INTEGER NOT NULL, stripped_size INTEGER NOT NULL,
  weight INTEGER NOT NULL, tx_count INTEGER NOT NULL,
  fees NUMERIC(40,0) NOT NULL, reward NUMERIC(40,0) NOT NULL, value_out NUMERIC(40,0) NOT NULL,
  txids BYTEA NOT NULL,
  PRIMARY KEY (net, hash)
);
CREATE UNIQUE INDEX blocks_main_by_height ON blocks (net, height) WHERE NOT is_orphan;

CREATE TABLE scripts (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, net SMALLINT NOT NULL, script BYTEA NOT NULL,
  received NUMERIC(40,0) NOT NULL DEFAULT 0, sent NUMERIC(40,0) NOT NULL DEFAULT 0,
  tx_count BIGINT NOT NULL DEFAULT 0, received_count BIGINT NOT NULL DEFAULT 0, sent_count BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX scripts_by_script ON scripts (net, script);

CREATE TABLE txs (
  net SMALLINT NOT NULL, txid BYTEA NOT NULL, block_hash BYTEA NOT NULL, height INTEGER, position INTEGER NOT NULL,
  raw BYTEA NOT NULL, size INTEGER NOT NULL, vsize INTEGER NOT NULL, weight INTEGER NOT NULL,
  fee BIGINT, is_coinbase BOOLEAN NOT NULL, prevouts BYTEA NOT NULL, first_seen BIGINT,
  PRIMARY KEY (net, txid)
);

CREATE TABLE outputs (
  net SMALLINT NOT NULL, txid BYTEA NOT NULL, vout INTEGER NOT NULL, value BIGINT NOT NULL,
  script_id BIGINT NOT NULL, height INTEGER NOT NULL, position INTEGER NOT NULL,
  spent_txid BYTEA, spent_vin INTEGER,
  PRIMARY KEY (net, txid, vout)
);
CREATE INDEX outputs_unspent_by_script ON outputs (script_id, height, position, vout) WHERE spent_txid IS NULL;

CREATE TABLE history (
  script_id BIGINT NOT NULL, height INTEGER NOT NULL, position INTEGER NOT NULL, io SMALLINT NOT NULL,
  n INTEGER NOT NULL, txid BYTEA NOT NULL, value BIGINT NOT NULL,
  PRIMARY KEY (script_id, height, position, io, n)
);

CREATE TABLE mempool_txs (
  net SMALLINT NOT NULL, txid BYTEA NOT NULL, raw BYTEA NOT NULL, size INTEGER NOT NULL, vsize INTEGER NOT NULL,
  weight INTEGER NOT NULL, fee BIGINT NOT NULL, seen_at BIGINT NOT NULL, prevouts BYTEA NOT NULL,
  double_spent BOOLEAN NOT NULL, removed BOOLEAN NOT NULL,
  PRIMARY KEY (net, txid)
);

CREATE TABLE mempool_outputs (
  net SMALLINT NOT NULL, txid BYTEA NOT NULL, vout INTEGER NOT NULL, value BIGINT NOT NULL, script_id BIGINT NOT NULL,
  PRIMARY KEY (net, txid, vout)
);
CREATE INDEX mempool_outputs_by_script ON mempool_outputs (script_id);

CREATE TABLE mempool_spends (
  net SMALLINT NOT NULL, prev_txid BYTEA NOT NULL, prev_vout INTEGER NOT NULL, txid BYTEA NOT NULL, vin INTEGER NOT NULL,
  script_id BIGINT NOT NULL, value BIGINT NOT NULL,
  PRIMARY KEY (net, prev_txid, prev_vout, txid)
);
CREATE INDEX mempool_spends_by_script ON mempool_spends (script_id);
