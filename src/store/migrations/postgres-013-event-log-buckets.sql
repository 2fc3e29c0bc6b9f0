-- Outpoint schema version 13 (PostgreSQL): the event log keyed by id bucket first (docs/schema.md, event_log).
-- Keyed by channel first, a block's thousands of address events went to as many random places of the whole log (at
-- 750,000 rows a 5,000-event append took 550 ms and grew with the log). Keyed by (bucket = event_id / 4096, channel),
-- an append writes into the newest bucket only; a channel is read by seeking it in each bucket after the cursor.
-- Shared bodies (a mempool tx's inputs and outputs, 'tx:<txid>') live in bucket -1, found by key.
CREATE TABLE event_log_v13 (
  net SMALLINT NOT NULL,
  bucket INTEGER NOT NULL,
  channel_key TEXT NOT NULL,
  event_id BIGINT NOT NULL,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (net, bucket, channel_key, event_id)
);
INSERT INTO event_log_v13 (net, bucket, channel_key, event_id, event, payload, created_at)
  SELECT net, CASE WHEN channel_key LIKE 'tx:%' THEN -1 ELSE event_id / 4096 END, channel_key, event_id, event, payload, created_at FROM event_log;
DROP TABLE event_log;
ALTER TABLE event_log_v13 RENAME TO event_log;
-- Pruning walks the oldest ids of a network.
CREATE INDEX event_log_by_id ON event_log (net, event_id);
