-- Outpoint schema version 12 (SQLite): the mempool's size sampled by the indexer (the explorer's 24-hour chart;
-- docs/schema.md). One row per network and sample time: the live mempool's tx count, serialized bytes, vbytes and
-- fees summed at that moment, the same figures v2 get_info / v3 network_info answer. Telemetry that is rebuilt, never
-- backed up; the indexer prunes rows older than [networks.X] mempool_samples_keep_hours.
CREATE TABLE mempool_samples (
  net INTEGER NOT NULL,
  time INTEGER NOT NULL,
  tx_count INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  vbytes INTEGER NOT NULL,
  fees INTEGER NOT NULL,
  PRIMARY KEY (net, time)
) WITHOUT ROWID;
