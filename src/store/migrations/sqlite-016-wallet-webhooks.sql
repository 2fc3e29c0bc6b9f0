-- Outpoint schema version 16 (SQLite): wallet webhooks (issue 50, docs/webhooks.md). A hook may watch a wallet: its
-- normalised descriptor and gap. SQLite cannot widen a CHECK in place, so the table is rebuilt with its ids (and its
-- AUTOINCREMENT sequence: a deleted hook's id is never given again, delivery ids derive from hook ids).
CREATE TABLE webhooks_v16 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  net INTEGER NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('address', 'tx_confirmations', 'block', 'double_spend', 'wallet')),
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  address TEXT, script TEXT, txid TEXT, confirmations INTEGER,
  created_at INTEGER NOT NULL,
  descriptor TEXT, gap INTEGER
);
INSERT INTO webhooks_v16 (id, account_id, net, event, url, secret, address, script, txid, confirmations, created_at)
  SELECT id, account_id, net, event, url, secret, address, script, txid, confirmations, created_at FROM webhooks;
INSERT INTO sqlite_sequence (name, seq) SELECT 'webhooks_v16', seq FROM sqlite_sequence WHERE name = 'webhooks';
DROP TABLE webhooks;
ALTER TABLE webhooks_v16 RENAME TO webhooks;
CREATE INDEX webhooks_by_account ON webhooks (account_id);
CREATE INDEX webhooks_by_net ON webhooks (net);
