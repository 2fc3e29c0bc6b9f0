import type { Sats } from '../../core/domain/money.js';
import type { MempoolSourceEntry } from '../../core/sources/mempool-source.js';

/** The explorer's mempool page lists this many of the newest txs. */
export const NEWEST_MEMPOOL_TXS = 50;

export interface NewestMempoolTx {
  readonly txid: string;
  /** What the tx pays (the index's fee where it has the tx; else the mining fee). */
  readonly fee: Sats;
  readonly vsize: number;
  /** UNIX seconds it entered the mempool. */
  readonly seenAt: number;
}

/** What the index knows of a mempool tx that the node's verbose mempool lacks. */
export interface IndexedMempoolFacts {
  readonly fee: Sats;
  readonly seenAt: number;
}

const newerFirst = (a: NewestMempoolTx, b: NewestMempoolTx): number => b.seenAt - a.seenAt || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0);

/**
 * The `limit` newest entries of one mempool snapshot, newest first (ties by txid), so a page's count, projection
 * and list all describe the same snapshot. A bounded insertion keeps it one pass over the mempool.
 */
export function newestMempoolTxs(
  entries: readonly MempoolSourceEntry[],
  indexed: ReadonlyMap<string, IndexedMempoolFacts> | null,
  takenAt: number,
  limit = NEWEST_MEMPOOL_TXS,
): NewestMempoolTx[] {
  const kept: NewestMempoolTx[] = [];
  for (const e of entries) {
    const known = indexed?.get(e.txid);
    const tx = { txid: e.txid, fee: known?.fee ?? e.fee, vsize: e.vsize, seenAt: e.seenAt ?? known?.seenAt ?? takenAt };
    if (kept.length === limit && newerFirst(tx, kept[limit - 1]!) >= 0) continue;
    let i = kept.length;
    while (i > 0 && newerFirst(tx, kept[i - 1]!) < 0) i--;
    kept.splice(i, 0, tx);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
