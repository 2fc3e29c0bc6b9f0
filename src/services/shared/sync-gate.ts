/**
 * The one check between chain queries and a network in its initial sync: chain reads of a network that is not
 * queryable fail with IndexSyncingError (HTTP 503 with Retry-After at the API edges). It reads SyncStatusCache, the
 * same snapshot get_info / network_info report, and is synchronous while the cached status is fresh.
 */
import { IndexSyncingError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import { isQueryable, type SyncStatus } from '../../core/domain/sync-status.js';
import type { SyncStatusCache } from './sync-status-cache.js';

/** Retry-After bounds (seconds): near the end clients do not hammer, during a long sync they do not sleep for hours. */
export const RETRY_AFTER_MIN = 5;
export const RETRY_AFTER_MAX = 60;
/** Retry-After before the indexer has an estimate. */
export const RETRY_AFTER_UNKNOWN = 30;

export function retryAfterSeconds(etaSeconds: number | null): number {
  if (etaSeconds === null) return RETRY_AFTER_UNKNOWN;
  return Math.min(Math.max(Math.ceil(etaSeconds), RETRY_AFTER_MIN), RETRY_AFTER_MAX);
}

/** The status as of `now`: the ETA counted down by the time since it was written (never below 0). */
export function countedDown(status: SyncStatus, now: number): SyncStatus {
  if (status.etaSeconds === null) return status;
  return { ...status, etaSeconds: Math.max(0, status.etaSeconds - Math.max(0, now - status.updatedAt)) };
}

export class SyncGate {
  constructor(
    private readonly cache: SyncStatusCache,
    /** UNIX seconds. */
    private readonly now: () => number,
  ) {}

  /** Returns (or resolves) when the network answers chain queries; throws (or rejects with) IndexSyncingError otherwise. */
  check(network: NetworkId): void | Promise<void> {
    const cached = this.cache.peek(network);
    if (cached === undefined) return this.cache.syncStatus(network).then((status) => this.assertQueryable(network, status));
    this.assertQueryable(network, cached);
  }

  /** Null when the network answers chain queries; else its status as of now. */
  async syncing(network: NetworkId): Promise<SyncStatus | null> {
    const status = await this.cache.syncStatus(network);
    return status === null || isQueryable(status) ? null : countedDown(status, this.now());
  }

  private assertQueryable(network: NetworkId, status: SyncStatus | null): void {
    if (status === null || isQueryable(status)) return;
    const { phase, height, targetHeight, etaSeconds } = countedDown(status, this.now());
    throw new IndexSyncingError({ network, phase, height, targetHeight, etaSeconds, retryAfterSeconds: retryAfterSeconds(etaSeconds) });
  }
}
