-- Outpoint schema version 11 (PostgreSQL): webhooks (docs/webhooks.md, docs/schema.md). Registrations per account,
-- deliveries persisted before their first attempt (a claim is a lease: lease_until), and the txs hooks follow to a depth.
CREATE TABLE webhooks (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  net SMALLINT NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('address', 'tx_confirmations', 'block', 'double_spend')),
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  address TEXT, script TEXT, txid TEXT, confirmations INTEGER,
  created_at BIGINT NOT NULL
);
CREATE INDEX webhooks_by_account ON webhooks (account_id);
CREATE INDEX webhooks_by_net ON webhooks (net);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  hook_id BIGINT NOT NULL,
  account_id BIGINT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at BIGINT NOT NULL,
  lease_until BIGINT NOT NULL DEFAULT 0,
  last_status INTEGER, last_error TEXT,
  created_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_by_account ON webhook_deliveries (account_id, created_at);
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (hook_id);
CREATE TABLE webhook_watches (
  hook_id BIGINT NOT NULL,
  txid TEXT NOT NULL,
  net SMALLINT NOT NULL,
  target INTEGER NOT NULL,
  delivered INTEGER NOT NULL,
  PRIMARY KEY (hook_id, txid)
);
CREATE INDEX webhook_watches_by_net ON webhook_watches (net);
