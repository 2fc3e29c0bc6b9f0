/**
 * What the full node says about fee rates: its own estimates (`estimatesmartfee`) and its relay floor. The fee
 * service blends them with the mempool projection (docs/wallets.md, "Fees"); the node driver implements this.
 */

/** One confirmation target's answer; rates are base units per virtual byte. */
export interface NodeFeeEstimate {
  /** The target asked for, in blocks. */
  readonly target: number;
  /** null when the node has no estimate (too little data; regtest; Dogecoin's -1). */
  readonly rate: number | null;
  /** The target the node answered for (it may widen the one asked for when it lacks data). */
  readonly answeredFor: number | null;
}

export interface NodeFeeEstimates {
  /** `getnetworkinfo` version (e.g. 290000, 1140900): whether a coin's estimates are trusted depends on it. */
  readonly nodeVersion: number;
  /** The minimum relay fee, base units per virtual byte. */
  readonly relayFeeRate: number;
  readonly estimates: readonly NodeFeeEstimate[];
}

export interface FeeEstimateSource {
  /** One round trip for all targets. */
  estimates(targets: readonly number[]): Promise<NodeFeeEstimates>;
}
