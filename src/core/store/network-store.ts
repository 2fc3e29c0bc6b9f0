import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, BlockHeaderRecord, BlockRecord, HashPrefixMatches, HistoryOptions, MempoolInfo, MempoolTxSummary, OutputRecord, TxRecord, UnspentOptions, UnspentOutput } from './chain-reads.js';
import type { ChainTip } from '../domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock, MempoolAddResult, MempoolEntry, MempoolRemoveReason } from './chain-writes.js';
import type { NetworkId } from '../domain/network.js';
import type { RawTxSource } from '../sources/raw-txs.js';
import type { ScriptSetReader } from './script-set-reads.js';
import type { ScriptHashIndexBuilder, ScriptHashReader } from './script-hash-reads.js';
import type { SyncStatus } from '../domain/sync-status.js';

/** One network's view of the store: the readers' side, the one writer's side and the bulk (initial) load. */

/** What API services need. Any number of readers per network. */
export interface NetworkReader {
  getTip(): Promise<ChainTip | null>;
  getMainChainHash(height: number): Promise<string | null>;
  getAddressTotals(script: Uint8Array, options?: AddressTotalsOptions): Promise<AddressTotals>;
  getAddressHistory(script: Uint8Array, options: HistoryOptions): Promise<AddressHistoryEntry[]>;
  getUnspent(script: Uint8Array, options: UnspentOptions): Promise<UnspentOutput[]>;
  /** Many scripts at once: a wallet's addresses. */
  readonly scriptSets: ScriptSetReader;
  /** Confirmed, mempool, orphaned or removed; null if never seen. */
  getTransaction(txid: string): Promise<TxRecord | null>;
  /** null if the tx is neither confirmed nor in the mempool. */
  getOutputs(txid: string): Promise<OutputRecord[] | null>;
  /** Main-chain or orphaned. */
  getBlockByHash(hash: string): Promise<BlockRecord | null>;
  /** Main chain only. */
  getBlockByHeight(height: number): Promise<BlockRecord | null>;
  /**
   * Main-chain blocks from `fromHeight` to `toHeight`, ascending, without their txids (the block rows alone: a block's
   * thousands of txids are not read when its bits, time or size are all that is needed).
   */
  getBlockHeaders(fromHeight: number, toHeight: number): Promise<BlockHeaderRecord[]>;
  getMempoolInfo(): Promise<MempoolInfo>;
  /** Live mempool txs (for fee-rate projections). */
  getMempoolEntries(): Promise<MempoolTxSummary[]>;
  /** Those of `txids` that are live in the mempool, in no particular order (a projection's new txs). */
  getMempoolEntriesOf(txids: readonly string[]): Promise<MempoolTxSummary[]>;
  getMempoolTxids(): Promise<string[]>;
  /**
   * Txids and block hashes starting with `prefix` (lower-case hex, 4 to 64 digits), at most `limit` of each, read by
   * index range scans (never a table scan, whatever the chain's size).
   */
  findHashPrefix(prefix: string, limit: number): Promise<HashPrefixMatches>;
  /** The stored initial-sync status; null: none stored (never bulk-loaded, counts as ready). Needs no chain index. */
  getSyncStatus(): Promise<SyncStatus | null>;
}

/**
 * The indexer's side: exactly one writer process per network (PostgreSQL enforces it with an advisory lock, SQLite
 * with a lock file); every write of another process rejects with WriterStandbyError until the writer ends.
 */
export interface NetworkWriter {
  /**
   * Makes this process the network's writer before anything else is written (an initial load's worker thread writes
   * through its own connection); a no-op once it is. WriterStandbyError while another process is the writer.
   */
  claimWriter(): Promise<void>;
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
 * are built once at the end. Chain reads of the network are not answered meanwhile (core/domain/sync-status.ts). Every call
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
   * Before a load a killed process left appends again: a store whose loader held rows in memory (PostgreSQL's worker
   * load holds the latest outputs) rewinds its tip to the last block written whole. Absent: nothing to do.
   */
  resumeBulkLoad?(): Promise<void>;
  /**
   * Builds what the load deferred, step by step (each atomic, resumable), then ends the bulk load. `onStep` is told
   * each step before it starts and awaited (a rejection stops the build before that step). `rawTxs`: where raw txs
   * the store does not keep come from (raw_txs = "node"), for the rare step that reads some (colliding script keys).
   */
  finishBulkLoad(onStep?: (step: BulkBuildStep) => void | Promise<void>, rawTxs?: RawTxSource): Promise<void>;
  /** Forgets the network's whole chain index and mempool (a bulk rebuild from scratch starts with it). */
  resetChain(): Promise<void>;
}

export interface NetworkStore extends NetworkReader, NetworkWriter, BulkLoader, ScriptHashIndexBuilder {
  readonly id: NetworkId;
  /** Reads by scripthash and the raw chain data of the Electrum protocol (not gated: the Electrum services gate them). */
  readonly scriptHashes: ScriptHashReader;
}
