-- Outpoint schema version 10 (PostgreSQL): the realtime event log. Same tables as sqlite-010-event-log.sql.
CREATE TABLE event_log_state (
  net SMALLINT PRIMARY KEY,
  last_id BIGINT NOT NULL,
  pruned_through BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE event_log (
  net SMALLINT NOT NULL,
  channel_key TEXT NOT NULL,
  event_id BIGINT NOT NULL,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (net, channel_key, event_id)
);
CREATE INDEX event_log_by_id ON event_log (net, event_id);
