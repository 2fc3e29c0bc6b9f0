import type { PrevoutInfo } from '../domain/chain-types.js';
import type { Sats } from '../domain/money.js';

/** Records the store answers reads with (API services, explorer): txs, outputs, blocks, histories, totals. */

export interface MempoolInfo {
  readonly count: number;
  /** Sum of serialized sizes. */
  readonly bytes: number;
  readonly vbytes: number;
}

/** Txids and block hashes that start with a hex prefix (the explorer's search suggestions). */
export interface HashPrefixMatches {
  /** Confirmed, orphaned or mempool txids, in hex order. */
  readonly txids: readonly string[];
  /** Main-chain or orphaned blocks, in hash order. */
  readonly blocks: readonly { readonly hash: string; readonly height: number; readonly isOrphan: boolean }[];
}

export interface MempoolTxSummary {
  readonly txid: string;
  readonly fee: Sats;
  readonly size: number;
  readonly vsize: number;
  readonly weight: number;
  readonly seenAt: number;
}

export interface AddressTotalsOptions {
  /** Confirmed figures count only txs with at least max(1, minConfirmations) confirmations. Default 1. */
  readonly minConfirmations?: number;
  /**
   * false: the mempool's txs touching the script are not counted, and `unconfirmedTxCount` is NaN. The sums need one
   * walk of the script's mempool index entries; the count a union of their txids, most of a balance read's cost at a
   * hot address (1,500 mempool txs: ~0.6 ms of ~0.8). Reads that show no count (v2 balance, received, spent) skip it.
   * Default true.
   */
  readonly mempoolTxCount?: boolean;
}

export interface AddressTotals {
  readonly confirmedReceived: Sats;
  readonly confirmedSent: Sats;
  readonly confirmedBalance: Sats;
  /** Distinct confirmed txs touching the script / funding it / spending from it. */
  readonly txCount: number;
  readonly receivedTxCount: number;
  readonly sentTxCount: number;
  /** Live mempool txs only. unconfirmedBalance may be negative. */
  readonly unconfirmedReceived: Sats;
  readonly unconfirmedSent: Sats;
  readonly unconfirmedBalance: Sats;
  readonly unconfirmedTxCount: number;
}

export interface HistoryOptions {
  /** Start strictly after this tx in the chosen direction; it must be confirmed (else NotFoundError field 'after_tx'). */
  readonly afterTxid?: string;
  /** Max number of transactions (not rows). */
  readonly limit: number;
  readonly offset?: number;
  /** asc = FIFO: (height, position) then mempool by (seenAt, txid); desc is the exact reverse. */
  readonly direction: 'asc' | 'desc';
  /** Only txs that fund the script ('received') or spend from it ('spent'). Default 'all'. */
  readonly kind?: 'all' | 'received' | 'spent';
  /** Default true. */
  readonly includeMempool?: boolean;
}

/** An output paying the script within a history tx. */
export interface HistoryFunding {
  readonly vout: number;
  readonly value: Sats;
}

/** An input of a history tx spending an output of the script. */
export interface HistorySpending {
  readonly vin: number;
  readonly value: Sats;
}

export interface AddressHistoryEntry {
  readonly txid: string;
  /** null when unconfirmed. */
  readonly height: number | null;
  readonly position: number | null;
  /** Block time when confirmed, first-seen time when unconfirmed. */
  readonly time: number;
  readonly received: Sats;
  readonly sent: Sats;
  readonly funding: readonly HistoryFunding[];
  readonly spending: readonly HistorySpending[];
}

export interface UnspentOptions {
  /** Start strictly after this (confirmed) tx in FIFO order. */
  readonly afterTxid?: string;
  readonly limit: number;
  readonly offset?: number;
  /** Append unconfirmed outputs (not spent in the mempool) after the confirmed ones. */
  readonly includeMempool: boolean;
}

/** Outputs spent by a live mempool tx are never listed. Order: (height, position, vout), then mempool. */
export interface UnspentOutput {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
  readonly height: number | null;
  readonly time: number;
}

/**
 * confirmed: in a main-chain block; mempool: live in the mempool; orphaned: only in orphaned block(s);
 * removed: was in the mempool and was removed as double-spent/replaced.
 */
export type TxStatus = 'confirmed' | 'mempool' | 'orphaned' | 'removed';

export interface TxRecord {
  readonly txid: string;
  /**
   * null for a confirmed or orphaned tx whose raw bytes the store does not keep ([store] raw_txs = "node"): services
   * read them from the node by `blockHash` and `position`. Mempool txs always have theirs.
   */
  readonly raw: Uint8Array | null;
  readonly status: TxStatus;
  readonly height: number | null;
  /** The main-chain block when confirmed; the orphaned block when orphaned; else null. */
  readonly blockHash: string | null;
  readonly blockTime: number | null;
  readonly position: number | null;
  /** When the indexer first saw it unconfirmed (null if it was only ever seen in a block). */
  readonly seenAt: number | null;
  /** Block time when confirmed, else seenAt (else the orphaned block's time). */
  readonly time: number;
  /** null for coinbase. */
  readonly fee: Sats | null;
  readonly size: number;
  readonly vsize: number;
  readonly weight: number;
  readonly isCoinbase: boolean;
  readonly doubleSpent: boolean;
  /** One per input, in order; null for a coinbase input. */
  readonly prevouts: readonly (PrevoutInfo | null)[];
}

/** The block fields of a tx no block holds (mempool, removed, known only from peers). */
export const IN_NO_BLOCK = { height: null, blockHash: null, blockTime: null, position: null } as const satisfies Partial<TxRecord>;

export interface SpendRef {
  readonly txid: string;
  readonly vin: number;
  readonly confirmed: boolean;
}

export interface OutputRecord {
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
  /** The confirmed spender if any, else a live mempool spender, else null. */
  readonly spentBy: SpendRef | null;
}

/** A block's stored fields without the list of its txs (a read of its row alone). */
export type BlockHeaderRecord = Omit<BlockRecord, 'txids' | 'nextHash'>;

export interface BlockRecord {
  readonly hash: string;
  readonly height: number;
  readonly prevHash: string;
  readonly merkleRoot: string;
  readonly version: number;
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
  readonly size: number;
  readonly strippedSize: number;
  readonly weight: number;
  readonly txCount: number;
  readonly txids: readonly string[];
  readonly isOrphan: boolean;
  /** The main-chain successor, null for orphans and the tip. */
  readonly nextHash: string | null;
  readonly fees: Sats;
  readonly reward: Sats;
  readonly valueOut: Sats;
}
