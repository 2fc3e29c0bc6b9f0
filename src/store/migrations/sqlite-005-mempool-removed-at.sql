-- Outpoint schema version 5 (SQLite): when a mempool tx was marked removed (replaced, double-spent, conflicted by a
-- block), so removed rows can be pruned once the configured retention has passed (docs/schema.md).
ALTER TABLE mempool_txs ADD COLUMN removed_at INTEGER;
-- Rows removed before this version count from the upgrade: none is pruned sooner than one retention after it.
UPDATE mempool_txs SET removed_at = CAST(strftime('%s', 'now') AS INTEGER) WHERE removed = 1;
-- Pruning reads only this index: removed_at sits after the raw bytes in the row, which would mean reading overflow pages.
CREATE INDEX mempool_removed_by_time ON mempool_txs (net, removed_at) WHERE removed = 1;
