-- Outpoint schema version 12 (PostgreSQL): mempool samples; same table as sqlite-012-mempool-samples.sql.
CREATE TABLE mempool_samples (
  net SMALLINT NOT NULL,
  time BIGINT NOT NULL,
  tx_count BIGINT NOT NULL,
  bytes BIGINT NOT NULL,
  vbytes BIGINT NOT NULL,
  fees BIGINT NOT NULL,
  PRIMARY KEY (net, time)
);
