import { readFileSync } from 'node:fs';

/** Migrations in order: index i upgrades schema version i to i + 1. */
const FILES: Record<'sqlite' | 'postgres', readonly string[]> = {
  sqlite: ['sqlite-001-initial.sql', 'sqlite-002-short-addresses.sql', 'sqlite-003-prices.sql', 'sqlite-004-accounts.sql', 'sqlite-005-mempool-removed-at.sql', 'sqlite-006-plan-concurrency.sql', 'sqlite-007-dashboard.sql'],
  postgres: ['postgres-001-initial.sql', 'postgres-002-short-addresses.sql', 'postgres-003-prices.sql', 'postgres-004-accounts.sql', 'postgres-005-mempool-removed-at.sql', 'postgres-006-plan-concurrency.sql', 'postgres-007-dashboard.sql'],
};

export function migrationSql(engine: 'sqlite' | 'postgres'): string[] {
  return FILES[engine].map((name) => readFileSync(new URL(name, import.meta.url), 'utf8'));
}
