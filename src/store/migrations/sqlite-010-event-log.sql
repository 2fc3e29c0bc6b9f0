-- Outpoint schema version 10 (SQLite): the realtime event log (docs/realtime.md, Catch-up; docs/schema.md).
-- event_log_state: per network the last event id given out and the highest id pruned (a cursor below it may have
-- missed events, the feed answers 410). event_log: one row per channel event, keyed by the channel within the
-- network ('blockchain' or an address channel's output script in hex), so the feed reads one index range.
CREATE TABLE event_log_state (
  net INTEGER PRIMARY KEY,
  last_id INTEGER NOT NULL,
  pruned_through INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE event_log (
  net INTEGER NOT NULL,
  channel_key TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (net, channel_key, event_id)
) WITHOUT ROWID;
-- Pruning walks the oldest ids of a network.
CREATE INDEX event_log_by_id ON event_log (net, event_id);
