import type { Logger, MempoolSampleStore, NetworkId } from '../../core/index.js';

export interface MempoolSamplerOptions {
  readonly store: MempoolSampleStore;
  /** Seconds between samples; 0 samples nothing. */
  readonly everySeconds: number;
  /** Samples older than this are deleted (checked at most every 10 minutes). */
  readonly keepSeconds: number;
}

const PRUNE_EVERY_SECONDS = 600;

/**
 * Records the network's mempool size (count, bytes, vbytes, fees) every `everySeconds` for the explorer's 24-hour
 * chart. The indexer calls `maybeSample` after each mempool pass (at least every idle resync, 5 s by default), so a
 * sample is taken within one pass of being due and always after the mempool was brought up to date. Samples land on
 * multiples of the interval where passes allow; a failure is logged and the next pass tries again (telemetry never stops
 * indexing).
 */
export class MempoolSampler {
  private lastSlot = -1;
  private lastPruneAt = -Infinity;

  constructor(
    private readonly network: NetworkId,
    private readonly options: MempoolSamplerOptions,
    private readonly logger: Logger,
    /** UNIX seconds. */
    private readonly now: () => number,
  ) {}

  async maybeSample(): Promise<void> {
    const every = this.options.everySeconds;
    if (every <= 0) return;
    const now = this.now();
    const slot = Math.floor(now / every);
    if (slot === this.lastSlot) return;
    this.lastSlot = slot;
    try {
      await this.options.store.sample(this.network, now);
      if (now - this.lastPruneAt >= PRUNE_EVERY_SECONDS) {
        this.lastPruneAt = now;
        await this.options.store.prune(this.network, now - this.options.keepSeconds);
      }
    } catch (error) {
      this.logger.warn('mempool sample failed; the next pass tries again', { network: this.network, error: (error as Error).message });
    }
  }
}
