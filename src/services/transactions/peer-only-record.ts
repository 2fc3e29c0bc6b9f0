import type { PeerOnlyTx, TxRecord } from '../../core/index.js';

/**
 * A transaction known only from peers, shaped as the index's record so every presenter shows it: unconfirmed,
 * `mempool` while it may still confirm and `removed` once a block confirmed a competitor; first seen when the first
 * peer announced it.
 */
export function peerOnlyRecord(peer: PeerOnlyTx, conflicted: boolean): TxRecord {
  const seenAt = Math.floor(peer.firstSeenMs / 1000);
  return {
    txid: peer.tx.txid,
    raw: peer.tx.raw,
    status: peer.dead ? 'removed' : 'mempool',
    height: null,
    blockHash: null,
    blockTime: null,
    position: null,
    seenAt,
    time: seenAt,
    fee: peer.fee,
    size: peer.tx.size,
    vsize: peer.tx.vsize,
    weight: peer.tx.weight,
    isCoinbase: peer.tx.isCoinbase,
    doubleSpent: peer.dead || conflicted,
    prevouts: peer.prevouts,
  };
}
