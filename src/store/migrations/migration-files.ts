import { readFileSync } from 'node:fs';
import { compactChainMigration } from './compact-chain-migration.js';
import { mempoolStatsMigration } from './mempool-stats-migration.js';
import { scriptHashMigration } from './script-hash-migration.js';

type Step = string | ((engine: 'sqlite' | 'postgres') => string);

/**
 * Migrations in order: index i upgrades schema version i to i + 1. The version is the position in this list, not the
 * number in the file name (names only keep the files sorted). A function generates SQL the layout module owns.
 */
const STEPS: Record<'sqlite' | 'postgres', readonly Step[]> = {
  sqlite: ['sqlite-001-initial.sql', 'sqlite-002-short-addresses.sql', 'sqlite-003-prices.sql', 'sqlite-004-accounts.sql', 'sqlite-005-mempool-removed-at.sql',
    'sqlite-006-plan-concurrency.sql', 'sqlite-007-dashboard.sql', compactChainMigration, 'sqlite-009-sync-status.sql',
    'sqlite-010-event-log.sql', 'sqlite-011-webhooks.sql', 'sqlite-012-mempool-samples.sql',
    'sqlite-013-event-log-buckets.sql', mempoolStatsMigration, scriptHashMigration, 'sqlite-016-wallet-webhooks.sql'],
  postgres: ['postgres-001-initial.sql', 'postgres-002-short-addresses.sql', 'postgres-003-prices.sql', 'postgres-004-accounts.sql',
    'postgres-005-mempool-removed-at.sql', 'postgres-006-plan-concurrency.sql', 'postgres-007-dashboard.sql', compactChainMigration, 'postgres-009-sync-status.sql',
    'postgres-010-event-log.sql', 'postgres-011-webhooks.sql', 'postgres-012-mempool-samples.sql',
    'postgres-013-event-log-buckets.sql', mempoolStatsMigration, scriptHashMigration, 'postgres-016-wallet-webhooks.sql'],
};

/** The SQL files sit beside this module: in src/ (run through tsx) and in dist/js/src/ (scripts/build-server.mjs copies them). */
export function migrationSql(engine: 'sqlite' | 'postgres'): string[] {
  return STEPS[engine].map((step) => (typeof step === 'string' ? readFileSync(new URL(step, import.meta.url), 'utf8') : step(engine)));
}
