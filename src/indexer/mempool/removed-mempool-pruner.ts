import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger, NetworkStore } from '../../core/index.js';

/**
 * Forgets mempool txs kept queryable as removed (replaced, double-spent) once they have been removed for
 * `keepSeconds`: without it a long-running node's store grows by every replacement it ever saw. Runs at most every
 * `everyMs`, first on the indexer's first pass (so a restart after a long stop catches up at once), and deletes in
 * chunks of `chunk` rows with the event loop free between them: SQLite's delete is synchronous (50,000 removed rows:
 * ~220 ms in one statement, ~50 ms per 5,000-row chunk here), and the first prune after an upgrade or a long
 * retention may face millions.
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
    private readonly chunk = 5000,
  ) {}

  /** Prunes when due; returns how many txs were forgotten, or null when it did not run. */
  async maybePrune(): Promise<number | null> {
    if (this.keepSeconds <= 0) return null;
    const now = this.nowMs();
    if (now - this.lastRunAt < this.everyMs) return null;
    this.lastRunAt = now;
    const before = Math.floor(now / 1000) - this.keepSeconds;
    let pruned = 0;
    for (;;) {
      const n = await this.store.pruneRemovedMempool(before, this.chunk);
      pruned += n;
      if (n < this.chunk) break;
      await yieldToEventLoop();
    }
    if (pruned > 0) this.logger.info('pruned removed mempool txs', { network: this.store.id, count: pruned, keptSeconds: this.keepSeconds });
    return pruned;
  }
}
