import type { Logger, NetworkStore } from '../core/index.js';

/**
 * Forgets mempool txs kept queryable as removed (replaced, double-spent) once they have been removed for
 * `keepSeconds`: without it a long-running node's store grows by every replacement it ever saw. Runs at most every
 * `everyMs`, first on the indexer's first pass (so a restart after a long stop catches up at once).
 */
export class RemovedMempoolPruner {
  private lastRunAt = -Infinity;

  constructor(
    private readonly store: Pick<NetworkStore, 'id' | 'pruneRemovedMempool'>,
    private readonly logger: Logger,
    /** 0 keeps removed txs forever. */
    private readonly keepSeconds: number,
    private readonly everyMs = 10 * 60_000,
    /** Wall clock in ms: compared with removal times the database stamped with its own clock, not a test clock. */
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Prunes when due; returns how many txs were forgotten, or null when it did not run. */
  async maybePrune(): Promise<number | null> {
    if (this.keepSeconds <= 0) return null;
    const now = this.nowMs();
    if (now - this.lastRunAt < this.everyMs) return null;
    this.lastRunAt = now;
    const pruned = await this.store.pruneRemovedMempool(Math.floor(now / 1000) - this.keepSeconds);
    if (pruned > 0) this.logger.info('pruned removed mempool txs', { network: this.store.id, count: pruned, keptSeconds: this.keepSeconds });
    return pruned;
  }
}
