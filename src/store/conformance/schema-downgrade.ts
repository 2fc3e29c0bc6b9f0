/**
 * Upgrade tests build today's schema, fill it, then put the layout back to an older version's (these statements
 * undo each migration, newest first) and let migrate() run the steps again, as an upgraded installation would.
 */
import type { TestDatabase } from './harness.js';

/** Per schema version, the statements that take the layout back to the version before it (both engines). */
const UNDO: Readonly<Record<number, readonly string[]>> = {
  7: [
    ...['recovery_codes', 'account_tokens', 'sessions', 'invites', 'api_key_usage'].map((t) => `DROP TABLE ${t}`),
    'DROP INDEX api_usage_by_day',
    ...['name', 'last_used_at', 'expires_at'].map((c) => `ALTER TABLE api_keys DROP COLUMN ${c}`),
    ...['password_hash', 'is_admin', 'disabled_at', 'email_verified_at', 'totp_secret', 'totp_enabled_at', 'totp_last_step'].map(
      (c) => `ALTER TABLE accounts DROP COLUMN ${c}`,
    ),
    // The plan the migration adds, unless an account uses it or the operator changed it.
    "DELETE FROM plans WHERE name = 'free' AND updated_at = 0 AND NOT EXISTS (SELECT 1 FROM accounts WHERE plan = 'free')",
  ],
  6: [],
  5: ['DROP INDEX mempool_removed_by_time', 'ALTER TABLE mempool_txs DROP COLUMN removed_at'],
};

/** Undoes every migration above `version` and records `version`; reopen and migrate() afterwards. */
export async function downgradeTo(db: TestDatabase, current: number, version: number): Promise<void> {
  for (let v = current; v > version; v--) for (const sql of UNDO[v] ?? []) await db.exec(sql);
  await db.setSchemaVersion(version);
}
