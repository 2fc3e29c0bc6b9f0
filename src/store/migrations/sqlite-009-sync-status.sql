-- Outpoint schema (SQLite): each network's initial-sync status (docs/schema.md, docs/indexer.md). The indexer writes
-- it between batches; API processes read it to answer 503 "index is syncing" until phase is 'ready'. No row: the
-- network was never bulk-loaded and counts as ready (every index built before this table existed).
CREATE TABLE sync_status (
  net INTEGER PRIMARY KEY,
  phase TEXT NOT NULL CHECK (phase IN ('loading', 'building-indexes', 'catching-up', 'ready')),
  height INTEGER, target_height INTEGER, eta_seconds INTEGER,
  updated_at INTEGER NOT NULL
);
