import type { Sats } from '../domain/money.js';

/** One unconfirmed transaction as a miner sees it: what it pays, what it weighs, which mempool txs it needs first. */
export interface MempoolSourceEntry {
  readonly txid: string;
  /** The fee mining uses (after prioritisation deltas). */
  readonly fee: Sats;
  readonly vsize: number;
  readonly weight: number;
  /** Serialized bytes, when the source knows them (Core's verbose mempool does not). */
  readonly size: number | null;
  /** In-mempool parents: they must be mined in the same or an earlier block. */
  readonly depends: readonly string[];
  /** UNIX seconds it entered the mempool, when the source knows (the explorer lists the newest). */
  readonly seenAt?: number;
}

export interface MempoolSnapshot {
  readonly entries: readonly MempoolSourceEntry[];
  /** The node's current minimum fee rate for entering the mempool, base units per vbyte. */
  readonly minFeeRate: number;
  /** UNIX seconds when the snapshot was taken. */
  readonly takenAt: number;
}

/** Where mempool block projections read the mempool from (production: the node's verbose getrawmempool). */
export interface MempoolSource {
  snapshot(): Promise<MempoolSnapshot>;
}
