/** SQLite sync_status: one row per network, replaced whole (see docs/schema.md). */
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { syncStatusFromRow, syncStatusValues } from '../../common/schema/sync-status-row.js';
import type { Row, Statements } from '../connection/sqlite-statements.js';

export function readSyncStatus(st: Statements, net: number): SyncStatus | null {
  const row = st.get('SELECT * FROM sync_status WHERE net = ?').get(net) as Row | undefined;
  return row ? syncStatusFromRow(row) : null;
}

export function writeSyncStatus(st: Statements, net: number, status: SyncStatus | null): void {
  if (status === null) {
    st.get('DELETE FROM sync_status WHERE net = ?').run(net);
    return;
  }
  st.get(`INSERT INTO sync_status (net, phase, height, target_height, eta_seconds, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (net) DO UPDATE SET phase = excluded.phase, height = excluded.height, target_height = excluded.target_height,
    eta_seconds = excluded.eta_seconds, updated_at = excluded.updated_at`).run(net, ...syncStatusValues(status));
}
