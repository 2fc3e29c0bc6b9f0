-- Outpoint schema (PostgreSQL): each network's initial-sync status. Same table as sqlite-009-sync-status.sql.
CREATE TABLE sync_status (
  net SMALLINT PRIMARY KEY,
  phase TEXT NOT NULL CHECK (phase IN ('loading', 'building-indexes', 'catching-up', 'ready')),
  height INTEGER, target_height INTEGER, eta_seconds BIGINT,
  updated_at BIGINT NOT NULL
);
