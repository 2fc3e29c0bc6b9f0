/** The sync_status row as both engines store it, and its reading back into core's SyncStatus. */
import { StoreError } from '../../../core/domain/errors.js';
import type { SyncPhase, SyncStatus } from '../../../core/domain/sync-status.js';

const PHASES: readonly SyncPhase[] = ['loading', 'building-indexes', 'catching-up', 'ready'];

/** Column values in table order after net: phase, height, target_height, eta_seconds, updated_at. */
export function syncStatusValues(status: SyncStatus): [SyncPhase, number | null, number | null, number | null, number] {
  return [status.phase, status.height, status.targetHeight, status.etaSeconds, status.updatedAt];
}

/** Integers arrive as bigint (SQLite) or strings (PostgreSQL int8): all of these are far below 2^53. */
export function syncStatusFromRow(row: Record<string, unknown>): SyncStatus {
  const phase = String(row.phase) as SyncPhase;
  if (!PHASES.includes(phase)) throw new StoreError(`sync_status: unknown phase ${phase.slice(0, 30)}`);
  const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return { phase, height: int(row.height), targetHeight: int(row.target_height), etaSeconds: int(row.eta_seconds), updatedAt: Number(row.updated_at) };
}
