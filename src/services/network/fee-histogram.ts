import type { Sats } from '../../core/domain/money.js';

/** Lower edges of the fee-rate ranges (base units per vbyte); the last range is open. As mempool.space's bands. */
export const FEE_HISTOGRAM_EDGES: readonly number[] = [0, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150, 200, 300, 500, 1000];

export interface FeeHistogramBand {
  /** Lowest rate of the band (inclusive). */
  readonly from: number;
  /** Highest rate (exclusive); null for the last, open band. */
  readonly to: number | null;
  readonly txs: number;
  readonly vsize: number;
}

/**
 * Txs by fee rate (the mempool's, a block's): how many txs and vbytes pay a rate in each band. The rate is each tx's
 * own fee over its vsize (not its package's); bands without txs are left out.
 */
export function feeHistogram(entries: readonly { readonly fee: Sats; readonly vsize: number }[]): FeeHistogramBand[] {
  const txs = new Array<number>(FEE_HISTOGRAM_EDGES.length).fill(0);
  const vsize = new Array<number>(FEE_HISTOGRAM_EDGES.length).fill(0);
  for (const e of entries) {
    const rate = e.vsize > 0 ? Number(e.fee) / e.vsize : 0;
    let band = FEE_HISTOGRAM_EDGES.length - 1;
    while (band > 0 && rate < FEE_HISTOGRAM_EDGES[band]!) band--;
    txs[band]!++;
    vsize[band]! += e.vsize;
  }
  return FEE_HISTOGRAM_EDGES.map((from, i) => ({ from, to: FEE_HISTOGRAM_EDGES[i + 1] ?? null, txs: txs[i]!, vsize: vsize[i]! })).filter((b) => b.txs > 0);
}
