/**
 * A network's rows in the shared tables (tips, sync_status, bulk_loads), as plans both engines run (sql-plan.ts):
 * one row per network code each.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { SyncPhase, SyncStatus } from '../../../core/domain/sync-status.js';
import type { BulkLoadState } from '../../../core/store/network-store.js';
import { bytesToHex, hexToBytes } from './codec.js';
import { exec, first, num, type Plan, type Row } from '../sql/sql-plan.js';

/** The tip marker and the id the next new tx gets; a network whose every block was disconnected keeps its row (height -1). */
export function* readTipRow(net: number): Plan<{ tip: ChainTip | null; nextTx: number }> {
  const row = yield* first('SELECT height, hash, next_tx FROM tips WHERE net = ?', [net]);
  if (!row) return { tip: null, nextTx: 0 };
  const tip = num(row.height) >= 0 ? { height: num(row.height), hash: bytesToHex(row.hash as Buffer) } : null;
  return { tip, nextTx: num(row.next_tx) };
}

export function* readTip(net: number): Plan<ChainTip | null> {
  return (yield* readTipRow(net)).tip;
}

export function* writeTip(net: number, tip: ChainTip, nextTx: number): Plan<void> {
  yield* exec(`INSERT INTO tips (net, height, hash, next_tx) VALUES (?, ?, ?, ?)
    ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash, next_tx = excluded.next_tx`,
  [net, tip.height, hexToBytes(tip.hash), nextTx]);
}

export function* readBulkLoad(net: number): Plan<BulkLoadState | null> {
  const row = yield* first('SELECT step, started_at FROM bulk_loads WHERE net = ?', [net]);
  return row ? { step: num(row.step), startedAt: num(row.started_at) } : null;
}

const PHASES: readonly SyncPhase[] = ['loading', 'building-indexes', 'catching-up', 'ready'];

/** Integers arrive as bigint (SQLite) or strings (PostgreSQL int8): all of these are far below 2^53. */
export function syncStatusFromRow(row: Row): SyncStatus {
  const phase = String(row.phase) as SyncPhase;
  if (!PHASES.includes(phase)) throw new StoreError(`sync_status: unknown phase ${phase.slice(0, 30)}`);
  const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return { phase, height: int(row.height), targetHeight: int(row.target_height), etaSeconds: int(row.eta_seconds), updatedAt: Number(row.updated_at) };
}

/** The sync_status row: one per network, replaced whole (see docs/schema.md). */
export function* readSyncStatus(net: number): Plan<SyncStatus | null> {
  const row = yield* first('SELECT * FROM sync_status WHERE net = ?', [net]);
  return row ? syncStatusFromRow(row) : null;
}

export function* writeSyncStatus(net: number, status: SyncStatus | null): Plan<void> {
  if (status === null) {
    yield* exec('DELETE FROM sync_status WHERE net = ?', [net]);
    return;
  }
  yield* exec(`INSERT INTO sync_status (net, phase, height, target_height, eta_seconds, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (net) DO UPDATE SET phase = excluded.phase, height = excluded.height, target_height = excluded.target_height,
    eta_seconds = excluded.eta_seconds, updated_at = excluded.updated_at`,
  [net, status.phase, status.height, status.targetHeight, status.etaSeconds, status.updatedAt]);
}
