import type { Block, Outpoint, PrevoutInfo, ScriptDelta, Transaction } from '../domain/chain-types.js';
import type { Sats } from '../domain/money.js';
import type { RawTxMode } from '../sources/raw-txs.js';

/** What the indexer hands the store and what the store's writes report back (the input of events). */

/** What applyRawTxMode found and did. */
export interface RawTxModeChange {
  readonly previous: RawTxMode | null;
  readonly deleted: number;
}

export interface BlockToConnect {
  readonly height: number;
  readonly block: Block;
}

export interface ConnectedBlock {
  readonly hash: string;
  readonly height: number;
  readonly prevHash: string;
  readonly time: number;
  readonly size: number;
  readonly txCount: number;
  /** Sum of the fees of the non-coinbase transactions. */
  readonly fees: Sats;
  /** Sum of the coinbase outputs (subsidy + fees as claimed). */
  readonly reward: Sats;
  /** Sum of all outputs of all transactions. */
  readonly valueOut: Sats;
  /** Per (script, txid): what the block's transactions received/sent. */
  readonly deltas: readonly ScriptDelta[];
  /**
   * Per tx of the block, in input order: the output each input spent (a coinbase: [null]). The writer resolves them
   * anyway, so the indexer's address events need no read-back of the txs it has just written.
   */
  readonly prevouts: ReadonlyMap<string, readonly (PrevoutInfo | null)[]>;
  /** Mempool txs that this block confirmed (removed from the mempool as 'confirmed'). */
  readonly confirmedFromMempool: readonly string[];
  /**
   * Mempool txs (and their descendants) that conflict with the block: marked double-spent and removed. A batch of
   * several blocks reports them once, with its last block.
   */
  readonly conflicted: readonly string[];
}

/** A transaction of a disconnected block, as stored (the indexer parses `raw` to offer it back to the mempool). */
export interface StoredTx {
  readonly txid: string;
  /** null when raw transactions are not stored ([store] raw_txs = "node"). */
  readonly raw: Uint8Array | null;
  readonly isCoinbase: boolean;
}

export interface DisconnectedBlock {
  readonly hash: string;
  readonly height: number;
  readonly prevHash: string;
  /** In block order. */
  readonly txs: readonly StoredTx[];
  /** The reverted deltas, with the signs of the original connection (subtract them). */
  readonly deltas: readonly ScriptDelta[];
}

export interface MempoolEntry {
  readonly tx: Transaction;
  /** UNIX seconds when the indexer first saw the transaction. */
  readonly seenAt: number;
}

/**
 * added: stored (possibly flagged doubleSpent); known: already in the mempool; confirmed: already in the main chain;
 * missing-parent: a prevout is neither confirmed nor in the mempool (not stored; `missing` names the outpoints).
 */
export type MempoolAddStatus = 'added' | 'known' | 'confirmed' | 'missing-parent';

export interface MempoolAddResult {
  readonly txid: string;
  readonly status: MempoolAddStatus;
  /** null unless added. */
  readonly fee: Sats | null;
  /**
   * True when an input spends an outpoint already spent by a confirmed tx (then the tx is stored as removed)
   * or by another mempool tx (then both stay in the mempool, both flagged).
   */
  readonly doubleSpent: boolean;
  /** The txids that spend the same outpoints (confirmed or mempool). */
  readonly conflictsWith: readonly string[];
  readonly missing: readonly Outpoint[];
  /** Empty unless added and live. */
  readonly deltas: readonly ScriptDelta[];
  /** What each input spent (in input order), empty unless added: events show the inputs' addresses without a re-read. */
  readonly prevouts: readonly PrevoutInfo[];
}

export type MempoolRemoveReason = 'confirmed' | 'evicted' | 'replaced';
