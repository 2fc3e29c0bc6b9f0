-- Outpoint schema version 6 is reserved for plans.max_concurrent_requests (issue 20), built on another branch;
-- this empty step keeps the dashboard's migration at number 7. The merge replaces this file with the real one.
SELECT 1;
