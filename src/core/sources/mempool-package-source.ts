import type { Sats } from '../domain/money.js';

/**
 * A mempool tx with its in-mempool relatives as the node's mining sees them (Core's `getmempoolentry`): what it and its
 * unconfirmed ancestors pay together, and it with its descendants. Sizes are virtual bytes; counts include the tx.
 */
export interface MempoolPackage {
  readonly txid: string;
  /** The fee mining uses (after prioritisation deltas). */
  readonly fee: Sats;
  /** Virtual size; plain size on nodes without segwit. */
  readonly vsize: number;
  /** Counts include the tx itself. */
  readonly ancestorCount: number;
  readonly ancestorSize: number;
  readonly ancestorFee: Sats;
  readonly descendantCount: number;
  readonly descendantSize: number;
  readonly descendantFee: Sats;
}

/** Where the explorer reads a tx's package (production: the node; the node driver implements it). */
export interface MempoolPackageSource {
  /** null when the node's mempool does not hold the tx (confirmed, removed, or only relayed by peers). */
  packageOf(txid: string): Promise<MempoolPackage | null>;
}
