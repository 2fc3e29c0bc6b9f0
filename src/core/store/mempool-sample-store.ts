import type { NetworkId } from '../domain/network.js';
import type { Sats } from '../domain/money.js';

/** The live mempool's size at one moment (the explorer's 24-hour chart). */
export interface MempoolSample {
  /** UNIX seconds. */
  readonly time: number;
  readonly txCount: number;
  /** Serialized bytes (v3 network_info `mempool_size`). */
  readonly bytes: number;
  readonly vbytes: number;
  readonly fees: Sats;
}

/**
 * Mempool samples per network, written by the network's indexer and read by the explorer. Rebuildable telemetry:
 * not in backups (docs/snapshots.md).
 */
export interface MempoolSampleStore {
  /**
   * Sums the network's live mempool (the rows v2 get_info counts) into a sample at `time`, in one statement so the
   * figures are one snapshot. A second sample at the same second is ignored. Resolves what was recorded, or null.
   */
  sample(network: NetworkId, time: number): Promise<MempoolSample | null>;
  /** Samples with `from <= time <= to`, oldest first. */
  read(network: NetworkId, from: number, to: number): Promise<MempoolSample[]>;
  /** Deletes samples older than `before`; resolves how many. */
  prune(network: NetworkId, before: number): Promise<number>;
}
