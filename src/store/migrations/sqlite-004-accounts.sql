-- Outpoint schema version 4 (SQLite): v3 accounts, plans, API keys and daily usage.
-- Keys are never stored: only a short public prefix (to name a key) and the SHA-256 of the whole key.
CREATE TABLE plans (
  name TEXT NOT NULL PRIMARY KEY, max_daily_requests INTEGER NOT NULL, updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, plan TEXT NOT NULL REFERENCES plans (name),
  created_at INTEGER NOT NULL, period_ends_at INTEGER NOT NULL, will_renew INTEGER NOT NULL, last_login_at INTEGER
);
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts (id), prefix TEXT NOT NULL UNIQUE,
  key_hash BLOB NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);
-- One row per account and UTC day (yyyy-mm-dd); API processes add their flushed increments to count.
CREATE TABLE api_usage (
  account_id INTEGER NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (account_id, day)
) WITHOUT ROWID;
