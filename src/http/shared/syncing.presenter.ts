/**
 * The additive `syncing` field of v2 get_info and v3 network_info: `false` when the network answers chain queries,
 * else its initial-sync status, so a client tests `if (data.syncing)` (docs/api-v2.md, get_info).
 */
import type { SyncStatus } from '../../core/domain/sync-status.js';

export function syncingData(status: SyncStatus | null) {
  if (status === null) return false as const;
  return {
    phase: status.phase,
    height: status.height,
    target_height: status.targetHeight,
    eta_seconds: status.etaSeconds,
    updated_at: status.updatedAt,
  };
}
