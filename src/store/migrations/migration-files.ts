import { readFileSync } from 'node:fs';

/**
 * Migrations in order: index i upgrades schema version i to i + 1. The version is the position in this list, not the
 * number in the file name (names only keep the files sorted), so a gap in the numbers changes nothing.
 */
const FILES: Record<'sqlite' | 'postgres', readonly string[]> = {
  sqlite: ['sqlite-001-initial.sql', 'sqlite-002-short-addresses.sql', 'sqlite-003-prices.sql', 'sqlite-004-accounts.sql', 'sqlite-005-mempool-removed-at.sql',
    'sqlite-009-sync-status.sql'],
  postgres: ['postgres-001-initial.sql', 'postgres-002-short-addresses.sql', 'postgres-003-prices.sql', 'postgres-004-accounts.sql', 'postgres-005-mempool-removed-at.sql',
    'postgres-009-sync-status.sql'],
};

export function migrationSql(engine: 'sqlite' | 'postgres'): string[] {
  return FILES[engine].map((name) => readFileSync(new URL(name, import.meta.url), 'utf8'));
}
