/**
 * Where a network's index stands relative to its node. During an initial sync (the network's index was empty when
 * the sync started, or a bulk re-load was asked for) the index is written without its secondary indexes and answers
 * no chain queries: v2/v3 chain endpoints answer 503 "index is syncing" until the phase is `ready`.
 *
 * The indexer is the only writer; it stores the status with the index (so every API process of a deployment reads
 * the same one). A network without a stored status counts as `ready` when its index has a tip (it was built before
 * the status existed, or incrementally), and as `loading` when it has none (effectiveSyncStatus).
 */
import type { NetworkId } from './network.js';

/**
 * loading: appending blocks to index-free tables (no chain queries);
 * building-indexes: building the secondary indexes, address history and totals (no chain queries);
 * catching-up: indexes built, following the node block by block up to its tip (still no chain queries);
 * ready: caught up with the node once; every query answers from here on.
 */
export type SyncPhase = 'loading' | 'building-indexes' | 'catching-up' | 'ready';

export interface SyncStatus {
  readonly phase: SyncPhase;
  /** Height of the last block written (null: none yet). */
  readonly height: number | null;
  /** The node's tip height when the indexer last looked (null: not known yet). */
  readonly targetHeight: number | null;
  /** Estimated seconds until `ready` (null: no estimate yet). */
  readonly etaSeconds: number | null;
  /** UNIX seconds of this status. */
  readonly updatedAt: number;
}

/** True when chain queries of the network may be answered. */
export function isQueryable(status: SyncStatus | null): boolean {
  return status === null || status.phase === 'ready';
}

/**
 * The status to act on, from the stored one and whether the index has a tip. An index with neither is an initial sync
 * whose first status is not written yet: a fresh start before the indexer's first pass, or an API process started
 * before its indexer. It answered as an empty, caught-up chain (200 "0.00000000" balances, get_info `blocks 0,
 * syncing false`) until the indexer wrote `loading` (issue 33); it is `loading` from the first request instead.
 */
export function effectiveSyncStatus(stored: SyncStatus | null, hasTip: boolean, nowSeconds: number): SyncStatus | null {
  if (stored !== null || hasTip) return stored;
  return { phase: 'loading', height: null, targetHeight: null, etaSeconds: null, updatedAt: nowSeconds };
}

/** Read side, for services (v2, v3, web, realtime): the stored status of each network. */
export interface SyncStatusSource {
  /** null: no status stored (never bulk-loaded: ready). */
  syncStatus(network: NetworkId): Promise<SyncStatus | null>;
}
