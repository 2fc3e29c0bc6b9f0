-- Outpoint schema version 4 (PostgreSQL): v3 accounts, plans, API keys and daily usage; same layout as sqlite-004-accounts.sql.
CREATE TABLE plans (
  name TEXT NOT NULL PRIMARY KEY, max_daily_requests BIGINT NOT NULL, updated_at BIGINT NOT NULL
);
CREATE TABLE accounts (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, email TEXT NOT NULL UNIQUE, plan TEXT NOT NULL REFERENCES plans (name),
  created_at BIGINT NOT NULL, period_ends_at BIGINT NOT NULL, will_renew BOOLEAN NOT NULL, last_login_at BIGINT
);
CREATE TABLE api_keys (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES accounts (id), prefix TEXT NOT NULL UNIQUE,
  key_hash BYTEA NOT NULL, created_at BIGINT NOT NULL, revoked_at BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);
CREATE TABLE api_usage (
  account_id BIGINT NOT NULL, day TEXT NOT NULL, count BIGINT NOT NULL,
  PRIMARY KEY (account_id, day)
);
