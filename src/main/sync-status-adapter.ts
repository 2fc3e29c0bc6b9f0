/**
 * ADAPTER for issue 19 (store rewrite with initial-sync status): readiness and metrics read each network's stored
 * SyncStatus through this one function. Until the store has NetworkReader.getSyncStatus() every network counts as
 * ready (core/sync-status.ts: no stored status = never bulk-loaded = ready); once it has, the status is read from it.
 * After issue 19 is merged this becomes `() => reader.getSyncStatus()` (or goes away).
 */
import type { NetworkReader, SyncStatus } from '../core/index.js';

export function syncStatusReader(reader: NetworkReader): () => Promise<SyncStatus | null> {
  const withStatus = reader as NetworkReader & { getSyncStatus?: () => Promise<SyncStatus | null> };
  if (typeof withStatus.getSyncStatus === 'function') return () => withStatus.getSyncStatus!();
  return () => Promise.resolve(null);
}
