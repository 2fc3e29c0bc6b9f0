-- Outpoint schema version 7 (SQLite): the account dashboard (docs/dashboard.md). Passwords (scrypt strings),
-- administrators, disabled accounts, email verification, TOTP second factors (secrets sealed with AES-256-GCM),
-- named keys with last use and a rotation grace, per-key daily usage, invites, sessions, one-time tokens and
-- recovery codes. Secrets (session ids, tokens, recovery codes) are stored only as SHA-256 hashes.
ALTER TABLE accounts ADD COLUMN password_hash TEXT;
ALTER TABLE accounts ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN disabled_at INTEGER;
ALTER TABLE accounts ADD COLUMN email_verified_at INTEGER;
ALTER TABLE accounts ADD COLUMN totp_secret BLOB;
ALTER TABLE accounts ADD COLUMN totp_enabled_at INTEGER;
ALTER TABLE accounts ADD COLUMN totp_last_step INTEGER;
-- Accounts made before this version came from the operator's CLI, who vouched for the address.
UPDATE accounts SET email_verified_at = created_at;
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
-- Set when a rotation gives the old key a grace period; the key answers 401 from then on.
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
-- Per key and UTC day, like api_usage per account (which stays the quota's record).
CREATE TABLE api_key_usage (
  key_id INTEGER NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (key_id, day)
) WITHOUT ROWID;
-- Admin usage of one day and pruning of old days read by day.
CREATE INDEX api_usage_by_day ON api_usage (day);
CREATE INDEX api_key_usage_by_day ON api_key_usage (day);
CREATE TABLE invites (
  id INTEGER PRIMARY KEY, token_hash BLOB NOT NULL UNIQUE, plan TEXT NOT NULL REFERENCES plans (name),
  is_admin INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, created_by INTEGER,
  used_at INTEGER, used_by INTEGER, revoked_at INTEGER
);
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY, token_hash BLOB NOT NULL UNIQUE, account_id INTEGER NOT NULL REFERENCES accounts (id),
  created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, ip TEXT NOT NULL, user_agent TEXT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
-- Reset and verification links and the second-factor step of a sign-in: one use each, until expires_at.
CREATE TABLE account_tokens (
  token_hash BLOB NOT NULL PRIMARY KEY, purpose TEXT NOT NULL, account_id INTEGER NOT NULL REFERENCES accounts (id),
  email TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX account_tokens_by_account ON account_tokens (account_id);
CREATE TABLE recovery_codes (
  account_id INTEGER NOT NULL REFERENCES accounts (id), code_hash BLOB NOT NULL, created_at INTEGER NOT NULL, used_at INTEGER,
  PRIMARY KEY (account_id, code_hash)
) WITHOUT ROWID;
-- The default plan of open registration exists out of the box (operators change it with `outpoint plans set`).
INSERT INTO plans (name, max_daily_requests, updated_at) VALUES ('free', 1000, 0) ON CONFLICT (name) DO NOTHING;
