import type { AccountStore } from './account-store.js';
import type { AuthStore } from './auth-store.js';
import type { Block, Transaction } from './chain-types.js';
import type { Sats } from './money.js';
import type { NetworkId } from './network.js';
import type { PriceQuote } from './prices.js';
import type { SyncStatus } from './sync-status.js';

export type * from './account-store.js';
export type * from './auth-store.js';

/**
 * The persistence boundary. One database holds every network; a NetworkStore is the view of one.
 * Scripts (scriptPubKey bytes) are the address key: callers decode addresses at the edge.
 * Amounts are bigint everywhere; the drivers store sums so they can neither overflow nor round.
 */
export interface ChainStore {
  /**
   * Creates or upgrades the schema. Rejects with StoreError if the database has a newer/unknown version.
   * `toVersion` stops at that version (upgrade tests build an older layout with it); the default is the newest.
   */
  migrate(toVersion?: number): Promise<void>;
  /** The version recorded in the database (0 when it has no schema yet). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
  network(id: NetworkId): NetworkStore;
  /** Persistent short forms of addresses (v2 `short`, explorer links). */
  shortAddresses(): ShortAddressStore;
  /** Exchange price history (market data): every observed change, for every coin, base and exchange. */
  prices(): PriceStore;
  /** v3 accounts, plans, API keys (hashes only) and daily usage counts. */
  accounts(): AccountStore;
  /** Dashboard sign-in data: password hashes, second factors, sessions, one-time tokens, invites. */
  auth(): AuthStore;
}

/** The newest stored price of one (coin, base, exchange), with the last time it was seen unchanged. */
export interface LatestPrice extends PriceQuote {
  /** UNIX seconds of the last observation of this price (>= time, the time it changed to it). Staleness is judged on this. */
  readonly checkedAt: number;
}

/**
 * Exchange prices (decimal strings, stored as given: callers normalise them) keyed by (coin, base, exchange).
 * Only changes make history rows; an unchanged observation just moves `checkedAt` forward.
 */
export interface PriceStore {
  /**
   * Records an observation. Resolves true (and adds a history row) when the price differs from the stored
   * latest one for (coin, base, exchange); false when it is unchanged (checkedAt moves to quote.time) or older
   * than the stored latest one (ignored). Two changes within one second keep the later one.
   */
  record(quote: PriceQuote): Promise<boolean>;
  /** The latest price per exchange for the coin in one base, or in every base when base is undefined. Sorted by base, exchange. */
  latest(coin: string, base?: string): Promise<LatestPrice[]>;
  /** Per exchange, the newest price at or before `time` (UNIX seconds). Sorted by exchange. */
  at(coin: string, base: string, time: number): Promise<PriceQuote[]>;
}

/**
 * Short forms (3 to 6 base58 characters) of addresses, per network. A short form is assigned on
 * first request and never changes or moves to another address afterwards (links stay valid).
 * Addresses are stored as given: callers pass the canonical spelling.
 */
export interface ShortAddressStore {
  /** The address's short form, assigning one if it has none yet. */
  shortFor(network: NetworkId, address: string): Promise<string>;
  /** The address a short form names, null if none. */
  addressFor(network: NetworkId, short: string): Promise<string | null>;
}

export interface ChainTip {
  readonly height: number;
  readonly hash: string;
}

export interface Outpoint {
  readonly txid: string;
  readonly vout: number;
}

/** What one transaction did to one script: the unit of balance_update events. */
export interface ScriptDelta {
  readonly script: Uint8Array;
  readonly txid: string;
  readonly received: Sats;
  readonly sent: Sats;
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
}

export type MempoolRemoveReason = 'confirmed' | 'evicted' | 'replaced';

export interface MempoolInfo {
  readonly count: number;
  /** Sum of serialized sizes. */
  readonly bytes: number;
  readonly vbytes: number;
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

export interface PrevoutInfo {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
}

/**
 * confirmed: in a main-chain block; mempool: live in the mempool; orphaned: only in orphaned block(s);
 * removed: was in the mempool and was removed as double-spent/replaced.
 */
export type TxStatus = 'confirmed' | 'mempool' | 'orphaned' | 'removed';

export interface TxRecord {
  readonly txid: string;
  readonly raw: Uint8Array;
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

/** What API services need. Any number of readers per network. */
export interface NetworkReader {
  getTip(): Promise<ChainTip | null>;
  getMainChainHash(height: number): Promise<string | null>;
  getAddressTotals(script: Uint8Array, options?: AddressTotalsOptions): Promise<AddressTotals>;
  getAddressHistory(script: Uint8Array, options: HistoryOptions): Promise<AddressHistoryEntry[]>;
  getUnspent(script: Uint8Array, options: UnspentOptions): Promise<UnspentOutput[]>;
  /** Confirmed, mempool, orphaned or removed; null if never seen. */
  getTransaction(txid: string): Promise<TxRecord | null>;
  /** null if the tx is neither confirmed nor in the mempool. */
  getOutputs(txid: string): Promise<OutputRecord[] | null>;
  /** Main-chain or orphaned. */
  getBlockByHash(hash: string): Promise<BlockRecord | null>;
  /** Main chain only. */
  getBlockByHeight(height: number): Promise<BlockRecord | null>;
  getMempoolInfo(): Promise<MempoolInfo>;
  /** Live mempool txs (for fee-rate projections). */
  getMempoolEntries(): Promise<MempoolTxSummary[]>;
  getMempoolTxids(): Promise<string[]>;
  /** The stored initial-sync status; null: none stored (never bulk-loaded, counts as ready). Needs no chain index. */
  getSyncStatus(): Promise<SyncStatus | null>;
}

/** The indexer's side: exactly one writer per network (PostgreSQL enforces it with an advisory lock). */
export interface NetworkWriter {
  /**
   * One atomic transaction for the whole batch including the tip marker. Blocks must extend the tip in order.
   * A missing prevout rejects with StoreError naming it and changes nothing.
   */
  connectBlocks(blocks: readonly BlockToConnect[]): Promise<ConnectedBlock[]>;
  /** Reverts the tip (which must be expectedHash); the block stays queryable with isOrphan. */
  disconnectTip(expectedHash: string): Promise<DisconnectedBlock>;
  /** Parents may come in the same call in any order. */
  addMempoolTxs(entries: readonly MempoolEntry[]): Promise<MempoolAddResult[]>;
  /** Removes the txs; for 'evicted'/'replaced' also their mempool descendants. Returns every txid removed. */
  removeMempoolTxs(txids: readonly string[], reason: MempoolRemoveReason): Promise<string[]>;
  /**
   * Forgets up to `limit` txs kept queryable as removed (replaced, double-spent, conflicted) whose removal, by the
   * database's clock, is older than `removedBefore` (unix seconds). Live mempool txs are never touched. Returns how
   * many; `limit` keeps each call short (a first prune after a long retention may face millions of rows).
   */
  pruneRemovedMempool(removedBefore: number, limit: number): Promise<number>;
  /** Replaces the network's sync status (null deletes it). Its own transaction; the indexer writes it between batches. */
  setSyncStatus(status: SyncStatus | null): Promise<void>;
}

/** An initial (bulk) load in progress: `step` 0 while blocks are appended, then the last build step done. */
export interface BulkLoadState {
  readonly step: number;
  /** UNIX seconds. */
  readonly startedAt: number;
}

/** A build step of finishBulkLoad that is about to run. */
export interface BulkBuildStep {
  /** 1-based. */
  readonly step: number;
  readonly steps: number;
  readonly name: string;
}

/**
 * Initial sync of an empty network (docs/indexer.md, "Initial sync"): blocks are appended to index-free tables without
 * reading anything back, and the secondary indexes, spends of older outputs, address histories, totals and block fees
 * are built once at the end. Chain reads of the network are not answered meanwhile (core/sync-status.ts). Every call
 * is atomic; a killed process resumes from the last block appended or the last build step done.
 */
export interface BulkLoader {
  /** null when no bulk load is in progress. */
  getBulkLoad(): Promise<BulkLoadState | null>;
  /** Starts a bulk load; the network's chain index must be empty (see resetChain). */
  beginBulkLoad(startedAt: number): Promise<void>;
  /** Appends blocks extending the tip (same rules as connectBlocks); resolves the new tip. */
  loadBlocks(blocks: readonly BlockToConnect[]): Promise<ChainTip>;
  /**
   * Builds what the load deferred, step by step (each atomic, resumable), then ends the bulk load. `onStep` is told
   * each step before it starts and awaited (a rejection stops the build before that step).
   */
  finishBulkLoad(onStep?: (step: BulkBuildStep) => void | Promise<void>): Promise<void>;
  /** Forgets the network's whole chain index and mempool (a bulk rebuild from scratch starts with it). */
  resetChain(): Promise<void>;
}

export interface NetworkStore extends NetworkReader, NetworkWriter, BulkLoader {
  readonly id: NetworkId;
}
