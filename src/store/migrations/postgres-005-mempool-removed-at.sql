-- Outpoint schema version 5 (PostgreSQL): when a mempool tx was marked removed (replaced, double-spent, conflicted by
-- a block), so removed rows can be pruned once the configured retention has passed (docs/schema.md).
-- Whole seconds rounded down, as SQLite's strftime('%s'): a cast alone would round up half the time.
ALTER TABLE mempool_txs ADD COLUMN removed_at BIGINT;
-- Rows removed before this version count from the upgrade: none is pruned sooner than one retention after it.
UPDATE mempool_txs SET removed_at = floor(EXTRACT(EPOCH FROM now()))::bigint WHERE removed;
CREATE INDEX mempool_removed_by_time ON mempool_txs (net, removed_at) WHERE removed;
