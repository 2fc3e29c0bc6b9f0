/**
 * mempool.get_fee_histogram as ElectrumX computes it (mempool.py) and Fulcrum copies it (Mempool.cpp): fee rates in
 * whole base units per vbyte (rounded down), highest first, the vbytes of each rate accumulated into bins of at least
 * 30,000 vbytes that grow by 10 % each, a rate holding more than twice a bin closing the bin before it. Each pair is
 * [the lowest rate in the bin, its vbytes].
 */
import type { MempoolTxSummary } from '../../core/store/chain-reads.js';

export function compactFeeHistogram(entries: readonly Pick<MempoolTxSummary, 'fee' | 'vsize'>[], binVbytes = 30_000): [number, number][] {
  const byRate = new Map<number, number>();
  for (const e of entries) {
    if (e.fee < 0n) continue;
    const rate = Math.floor(Number(e.fee) / Math.max(e.vsize, 1));
    byRate.set(rate, (byRate.get(rate) ?? 0) + e.vsize);
  }
  const out: [number, number][] = [];
  let bin = binVbytes;
  let sum = 0;
  let previous: number | null = null;
  for (const [rate, vsize] of [...byRate].sort((a, b) => b[0] - a[0])) {
    if (vsize > 2 * bin && previous !== null && sum > 0) {
      out.push([previous, sum]);
      sum = 0;
      bin *= 1.1;
    }
    sum += vsize;
    if (sum > bin) {
      out.push([rate, sum]);
      sum = 0;
      bin *= 1.1;
    }
    previous = rate;
  }
  return out;
}
