-- Outpoint schema version 6 (PostgreSQL): concurrent requests per account of the plan; same as sqlite-006-plan-concurrency.sql.
ALTER TABLE plans ADD COLUMN max_concurrent_requests BIGINT NOT NULL DEFAULT 0;
