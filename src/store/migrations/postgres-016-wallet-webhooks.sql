-- Outpoint schema version 16 (PostgreSQL): wallet webhooks (issue 50, docs/webhooks.md). A hook may watch a wallet:
-- its normalised descriptor and gap. IF NOT EXISTS: the upgrade tests set an older version on a newer store and migrate again.
ALTER TABLE webhooks DROP CONSTRAINT IF EXISTS webhooks_event_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_event_check CHECK (event IN ('address', 'tx_confirmations', 'block', 'double_spend', 'wallet'));
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS descriptor TEXT;
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS gap INTEGER;
