/** PostgreSQL sync_status: one row per network, replaced whole (see docs/schema.md). */
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { syncStatusFromRow, syncStatusValues } from '../../common/schema/sync-status-row.js';
import { one, type Queryable } from '../connection/postgres-sql.js';

export async function readSyncStatus(db: Queryable, net: number): Promise<SyncStatus | null> {
  const row = await one(db, 'SELECT * FROM sync_status WHERE net = $1', [net]);
  return row ? syncStatusFromRow(row) : null;
}

export async function writeSyncStatus(db: Queryable, net: number, status: SyncStatus | null): Promise<void> {
  if (status === null) {
    await db.query('DELETE FROM sync_status WHERE net = $1', [net]);
    return;
  }
  await db.query(`INSERT INTO sync_status (net, phase, height, target_height, eta_seconds, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (net) DO UPDATE SET phase = excluded.phase, height = excluded.height, target_height = excluded.target_height,
    eta_seconds = excluded.eta_seconds, updated_at = excluded.updated_at`, [net, ...syncStatusValues(status)]);
}
