-- Outpoint schema version 6 (SQLite): how many requests an account of the plan may have in flight at once
-- (the spec's private instances are sold by concurrent requests: 8/16/32). 0 = no limit, what every existing plan keeps.
ALTER TABLE plans ADD COLUMN max_concurrent_requests INTEGER NOT NULL DEFAULT 0;
