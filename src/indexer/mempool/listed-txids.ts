import type { TxidList, TxidSet } from '../../core/index.js';

/** The node's list at the end of a pass and, for each of its txids, whether the stored mempool then held it. */
export interface ListedTxids {
  readonly list: TxidList;
  readonly stored: Uint8Array;
}

/** Txids of the previous list looked at past a mismatch for the current one (txids that left in between). */
const LOOKAHEAD = 8;

/**
 * For each txid of the node's list, whether `ours` holds it (1) or not (0).
 *
 * With `previous` (the last pass's list, against the same `ours` as it was left), runs of txids the two lists share in
 * the same order take their answers from it: a node lists its mempool in a fixed order (Core: by ancestor count, then
 * fee rate; txs that arrived in between are inserted into it), so between two polls nearly all of a 20,000-30,000-tx
 * list is such runs, found by comparing bytes (TxidList.commonRun), and only the txids between runs are looked up in
 * `ours`. Looking every txid up cost 5-10 ms at every poll (docs/benchmarks.md, "Mempool at mainnet rates"). Any
 * txid not in a run is looked up, so the answers are the same whatever the order.
 */
export function storedFlags(list: TxidList, ours: TxidSet, previous: ListedTxids | null): Uint8Array {
  const stored = new Uint8Array(list.length);
  if (previous === null) {
    for (let j = 0; j < list.length; j++) stored[j] = ours.hasAt(list, j) ? 1 : 0;
    return stored;
  }
  const before = previous.list;
  let i = 0;
  let j = 0;
  while (j < list.length) {
    const run = i < before.length ? list.commonRun(j, before, i) : 0;
    if (run > 0) {
      stored.set(previous.stored.subarray(i, i + run), j);
      i += run;
      j += run;
      continue;
    }
    const has = ours.hasAt(list, j);
    stored[j] = has ? 1 : 0;
    if (!has) {
      // New since the last pass: the previous list's i-th may be the next one's match.
      j++;
      continue;
    }
    // Listed before but not here in the previous list: txids before it there left, or the order changed.
    let skip = 0;
    for (let d = 1; d <= LOOKAHEAD && i + d < before.length; d++) {
      if (list.commonRun(j, before, i + d) > 0) {
        skip = d;
        break;
      }
    }
    if (skip > 0) i += skip;
    else {
      i++;
      j++;
    }
  }
  return stored;
}
