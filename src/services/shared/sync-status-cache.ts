/**
 * Each network's stored initial-sync status as API processes see it: read from the store at most once per TTL per
 * process, one read shared by the requests that arrive while it runs. The TTLs bound how long a process keeps
 * answering 503 after the indexer wrote `ready` (and how long it keeps answering after a bulk re-load began):
 * 250 ms while a network syncs, 1 s once it is ready (the store is then read once a second per network and process,
 * one primary-key row, instead of once per request: a PostgreSQL round trip per request would cost more than the
 * request). Every gate and get_info / network_info answer of a process reads this one cache, so within a process
 * get_info can never say "caught up" while a chain query of the same network still answers 503.
 */
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { effectiveSyncStatus, isQueryable, type SyncStatus, type SyncStatusSource } from '../../core/domain/sync-status.js';

export const SYNCING_TTL_MS = 250;
export const READY_TTL_MS = 1000;

export interface SyncStatusCacheOptions {
  readonly syncingTtlMs?: number;
  readonly readyTtlMs?: number;
  /** Milliseconds, monotonic; injectable for tests. */
  readonly clockMs?: () => number;
}

interface Entry {
  readonly status: SyncStatus | null;
  readonly expiresAt: number;
}

/**
 * The store as a SyncStatusSource: the status each network's reader returns, or `loading` for an index with neither a
 * status nor a tip (effectiveSyncStatus; the tip is read only then). Networks not listed count as ready.
 */
export function storeSyncStatusSource(
  readers: ReadonlyMap<NetworkId, { readonly reader: Pick<NetworkReader, 'getSyncStatus' | 'getTip'> }>,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): SyncStatusSource {
  return {
    syncStatus: async (network) => {
      const reader = readers.get(network)?.reader;
      if (!reader) return null;
      const stored = await reader.getSyncStatus();
      return stored !== null ? stored : effectiveSyncStatus(null, (await reader.getTip()) !== null, nowSeconds());
    },
  };
}

export class SyncStatusCache implements SyncStatusSource {
  private readonly entries = new Map<NetworkId, Entry>();
  private readonly reading = new Map<NetworkId, Promise<SyncStatus | null>>();
  private readonly syncingTtlMs: number;
  private readonly readyTtlMs: number;
  private readonly clockMs: () => number;

  constructor(private readonly source: SyncStatusSource, options: SyncStatusCacheOptions = {}) {
    this.syncingTtlMs = options.syncingTtlMs ?? SYNCING_TTL_MS;
    this.readyTtlMs = options.readyTtlMs ?? READY_TTL_MS;
    this.clockMs = options.clockMs ?? (() => performance.now());
  }

  /** The cached status while fresh (null: ready); undefined when it must be read again. */
  peek(network: NetworkId): SyncStatus | null | undefined {
    const entry = this.entries.get(network);
    return entry && this.clockMs() < entry.expiresAt ? entry.status : undefined;
  }

  syncStatus(network: NetworkId): Promise<SyncStatus | null> {
    const fresh = this.peek(network);
    return fresh === undefined ? this.read(network) : Promise.resolve(fresh);
  }

  private read(network: NetworkId): Promise<SyncStatus | null> {
    let pending = this.reading.get(network);
    if (pending) return pending;
    // Counted from before the read: the entry never outlives the TTL measured from what the store said.
    const startedAt = this.clockMs();
    pending = this.source.syncStatus(network).then(
      (status) => {
        this.entries.set(network, { status, expiresAt: startedAt + (isQueryable(status) ? this.readyTtlMs : this.syncingTtlMs) });
        this.reading.delete(network);
        return status;
      },
      (error: unknown) => {
        this.reading.delete(network);
        throw error;
      },
    );
    this.reading.set(network, pending);
    return pending;
  }
}
