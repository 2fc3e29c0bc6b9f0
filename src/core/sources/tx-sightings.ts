/**
 * What the P2P listener has seen of transactions, as services read it: who announced a tx and when, transactions
 * known only from peers (never in our node's mempool), and conflicting spends. The indexer side
 * (src/indexer/sightings) keeps it in bounded memory; nothing here is persisted (docs/confidence.md).
 */
import type { Transaction, Outpoint, PrevoutInfo } from '../domain/chain-types.js';
import type { Sats } from '../domain/money.js';

export interface TxSighting {
  /** UNIX ms of the first announcement (or of our node accepting it, if that came first). */
  readonly firstSeenMs: number;
  /** Distinct peers that announced it. */
  readonly announcedBy: number;
  /** Peers that could have announced it: connected since before it was first seen and still connected, plus those that did. */
  readonly sampled: number;
}

/** A transaction some peer relayed to us that our node's mempool does not hold. */
export interface PeerOnlyTx {
  readonly tx: Transaction;
  /** One per input: the spent output when our index or another peer-only tx has it, else null. */
  readonly prevouts: readonly (PrevoutInfo | null)[];
  /** null unless every prevout is known. */
  readonly fee: Sats | null;
  readonly firstSeenMs: number;
  /** A block confirmed another spend of one of its inputs: it can never confirm. */
  readonly dead: boolean;
}

/**
 * How a conflicting tx relates to the one it is listed under. `replaces`/`replaced-by` follow BIP125 (the replaced
 * tx signals replaceability and the replacement pays a higher fee and fee rate); anything else is a double spend.
 */
export type ConflictRelation = 'double-spend' | 'replaces' | 'replaced-by';

export interface TxConflict {
  /** The other spender. */
  readonly txid: string;
  readonly relation: ConflictRelation;
  /** An outpoint both spend. */
  readonly outpoint: Outpoint;
  readonly detectedAtMs: number;
}

/** One network's sightings. */
export interface TxSightings {
  /** Peers with a completed handshake now; 0 means no network view (services fall back to the local model). */
  connectedPeers(): number;
  sighting(txid: string): TxSighting | null;
  peerTx(txid: string): PeerOnlyTx | null;
  conflicts(txid: string): readonly TxConflict[];
}

/** A competing spender as the judge needs it: confirmed, live (a mempool somewhere), dead (can never confirm), or forgotten. */
export type SpenderState = 'confirmed' | 'live' | 'dead' | 'unknown';

/**
 * The double-spend verdict of an unconfirmed, not yet dead tx from its conflicts: true when a competitor is confirmed,
 * or live (or forgotten: we cannot tell it died) and not a tx this one replaced under BIP125. A replaced competitor
 * and a dead one do not count: once the replacement is the only live spender it reads like any other tx.
 */
export function hasLiveConflict(conflicts: readonly TxConflict[], stateOf: (txid: string) => SpenderState): boolean {
  return conflicts.some((c) => {
    const state = stateOf(c.txid);
    if (state === 'confirmed') return true;
    if (state === 'dead') return false;
    return c.relation !== 'replaces';
  });
}
