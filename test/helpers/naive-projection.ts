/**
 * An independent, deliberately simple (quadratic) block projection to check the service against:
 * at every step recompute every remaining tx's package (itself plus not-yet-included ancestors) from
 * scratch, take the best rate (ties by txid) whose package fits, else set it aside for this block.
 */
import type { MempoolSourceEntry } from '../../src/core/sources/mempool-source.js';

export interface NaiveBlock {
  blockNum: number;
  minFeeRate: number;
  maxFeeRate: number;
  medianFeeRate: number;
  minFeeRatePossible: number;
  weight: number;
  size: number;
  numTxs: number;
  txids: string[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function naiveProjection(entries: readonly MempoolSourceEntry[], maxBlockWeight: number, blocks: number, minFeeRate: number): NaiveBlock[] {
  const byId = new Map(entries.map((e) => [e.txid, e]));
  const included = new Set<string>();
  const budget = maxBlockWeight - 4000;
  const packageOf = (txid: string, acc = new Set<string>()): Set<string> => {
    if (acc.has(txid) || included.has(txid)) return acc;
    acc.add(txid);
    for (const p of byId.get(txid)!.depends) if (byId.has(p)) packageOf(p, acc);
    return acc;
  };
  const out: NaiveBlock[] = [];
  for (let b = 1; b <= blocks; b++) {
    let weight = 0;
    let size = 0;
    const rates: number[] = [];
    const txids: string[] = [];
    /** txid -> package weight when it was set aside (a changed package is looked at again). */
    const aside = new Map<string, number>();
    for (;;) {
      const candidates = entries
        .filter((e) => !included.has(e.txid))
        .map((e) => {
          const pkg = [...packageOf(e.txid)].map((t) => byId.get(t)!);
          const fee = pkg.reduce((s, t) => s + Number(t.fee), 0);
          const vsize = pkg.reduce((s, t) => s + t.vsize, 0);
          return { txid: e.txid, pkg, rate: fee / vsize, weight: pkg.reduce((s, t) => s + t.weight, 0) };
        })
        .filter((c) => aside.get(c.txid) !== c.weight)
        .sort((x, y) => y.rate - x.rate || (x.txid < y.txid ? -1 : 1));
      const best = candidates[0];
      if (!best) break;
      if (weight + best.weight > budget) {
        aside.set(best.txid, best.weight);
        continue;
      }
      for (const t of best.pkg) {
        included.add(t.txid);
        txids.push(t.txid);
        rates.push(best.rate);
        weight += t.weight;
        size += t.size ?? t.vsize;
      }
    }
    if (rates.length === 0) {
      // The spec's projection always has `blocks` items: what the mempool does not fill is an empty block.
      out.push({ blockNum: b, minFeeRate: 0, maxFeeRate: 0, medianFeeRate: 0, minFeeRatePossible: round2(minFeeRate), weight: 0, size: 0, numTxs: 0, txids: [] });
      continue;
    }
    const sorted = [...rates].sort((x, y) => x - y);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    const full = weight > budget - 4000;
    out.push({
      blockNum: b, minFeeRate: round2(sorted[0]!), maxFeeRate: round2(sorted[sorted.length - 1]!), medianFeeRate: round2(median),
      minFeeRatePossible: round2(full ? sorted[0]! : minFeeRate), weight, size, numTxs: rates.length, txids,
    });
  }
  return out;
}
