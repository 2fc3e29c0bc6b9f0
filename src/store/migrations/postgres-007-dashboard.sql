-- Outpoint schema version 7 (PostgreSQL): the account dashboard; same layout as sqlite-007-dashboard.sql.
ALTER TABLE accounts ADD COLUMN password_hash TEXT;
ALTER TABLE accounts ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN disabled_at BIGINT;
ALTER TABLE accounts ADD COLUMN email_verified_at BIGINT;
ALTER TABLE accounts ADD COLUMN totp_secret BYTEA;
ALTER TABLE accounts ADD COLUMN totp_enabled_at BIGINT;
ALTER TABLE accounts ADD COLUMN totp_last_step BIGINT;
UPDATE accounts SET email_verified_at = created_at;
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
ALTER TABLE api_keys ADD COLUMN expires_at BIGINT;
CREATE TABLE api_key_usage (
  key_id BIGINT NOT NULL, day TEXT NOT NULL, count BIGINT NOT NULL,
  PRIMARY KEY (key_id, day)
);
CREATE INDEX api_usage_by_day ON api_usage (day);
CREATE INDEX api_key_usage_by_day ON api_key_usage (day);
CREATE TABLE invites (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, token_hash BYTEA NOT NULL UNIQUE, plan TEXT NOT NULL REFERENCES plans (name),
  is_admin BOOLEAN NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, created_by BIGINT,
  used_at BIGINT, used_by BIGINT, revoked_at BIGINT
);
CREATE TABLE sessions (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, token_hash BYTEA NOT NULL UNIQUE, account_id BIGINT NOT NULL REFERENCES accounts (id),
  created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, ip TEXT NOT NULL, user_agent TEXT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE TABLE account_tokens (
  token_hash BYTEA NOT NULL PRIMARY KEY, purpose TEXT NOT NULL, account_id BIGINT NOT NULL REFERENCES accounts (id),
  email TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT
);
CREATE INDEX account_tokens_by_account ON account_tokens (account_id);
CREATE TABLE recovery_codes (
  account_id BIGINT NOT NULL REFERENCES accounts (id), code_hash BYTEA NOT NULL, created_at BIGINT NOT NULL, used_at BIGINT,
  PRIMARY KEY (account_id, code_hash)
);
INSERT INTO plans (name, max_daily_requests, updated_at) VALUES ('free', 1000, 0) ON CONFLICT (name) DO NOTHING;
