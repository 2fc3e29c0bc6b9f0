-- Outpoint schema version 11 (SQLite): webhooks (docs/webhooks.md, docs/schema.md). Registrations per account,
-- deliveries persisted before their first attempt (a claim is a lease: lease_until), and the txs hooks follow to a depth.
CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  net INTEGER NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('address', 'tx_confirmations', 'block', 'double_spend')),
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  address TEXT, script TEXT, txid TEXT, confirmations INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhooks_by_account ON webhooks (account_id);
CREATE INDEX webhooks_by_net ON webhooks (net);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  hook_id INTEGER NOT NULL,
  account_id INTEGER NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  last_status INTEGER, last_error TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_by_account ON webhook_deliveries (account_id, created_at);
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (hook_id);
CREATE TABLE webhook_watches (
  hook_id INTEGER NOT NULL,
  txid TEXT NOT NULL,
  net INTEGER NOT NULL,
  target INTEGER NOT NULL,
  delivered INTEGER NOT NULL,
  PRIMARY KEY (hook_id, txid)
);
CREATE INDEX webhook_watches_by_net ON webhook_watches (net);
