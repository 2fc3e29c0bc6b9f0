/**
 * NetworkStore over one SQLite connection: each write is one synchronous better-sqlite3 transaction, written only
 * while this process holds the network's writer lock (sqlite-writer-lock.ts; WriterStandbyError otherwise).
 */
import type Database from 'better-sqlite3';
import type { NetworkId } from '../../../core/domain/network.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, BlockRecord, HistoryOptions, MempoolInfo, MempoolTxSummary, OutputRecord, TxRecord, UnspentOptions, UnspentOutput } from '../../../core/store/chain-reads.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock, MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import type { BulkBuildStep, BulkLoadState, NetworkStore } from '../../../core/store/network-store.js';
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import { ScriptCache } from '../../common/chain-writes/script-cache.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { finishBulkLoad } from './sqlite-bulk-build.js';
import { beginBulkLoadSync, loadBlocksSync, readBulkLoad, resetChainSync } from './sqlite-bulk-load.js';
import { SqliteAddressReader } from './sqlite-address-reader.js';
import { SqliteScriptSetReader } from './sqlite-script-set-reader.js';
import { SqliteChainReader } from './sqlite-chain-reader.js';
import { connectBlocksSync, disconnectTipSync, readTip } from './sqlite-chain-writer.js';
import { addMempoolTxsSync, removeMempoolTxsSync } from './sqlite-mempool-writer.js';
import { SqliteNet } from './sqlite-net.js';
import type { Statements } from '../connection/sqlite-statements.js';
import { readSyncStatus, writeSyncStatus } from './sqlite-sync-status.js';
import { SqliteWriterLock, writerLockPath } from '../connection/sqlite-writer-lock.js';

export class SqliteNetworkStore implements NetworkStore {
  private readonly n: SqliteNet;
  private readonly address: SqliteAddressReader;
  readonly scriptSets: SqliteScriptSetReader;
  private readonly chain: SqliteChainReader;
  /** Script rows between block batches (this network's writer only; see ScriptCache for the rules). */
  private readonly scripts = new ScriptCache();
  /** PRAGMA data_version when the cache was last in step: it changes only when another connection commits. */
  private dataVersion: bigint | null = null;
  /** Script keys a bulk load staged lately (bounded; see RecentKeys). */
  private recentScripts = new RecentKeys();
  private readonly writer: SqliteWriterLock;

  /** `pagesFreed`: told when a build or reset has freed many pages (the store gives them back in the background). */
  constructor(
    readonly id: NetworkId, private readonly db: Database.Database, st: Statements, options: ChainStoreOptions = {},
    private readonly pagesFreed: () => void = () => undefined,
    /** False in a worker thread of the writing process (sqlite-store.ts, inWriterProcess). */
    takeWriterLock = true,
  ) {
    this.n = new SqliteNet(st, id, options);
    this.address = new SqliteAddressReader(this.n);
    this.scriptSets = new SqliteScriptSetReader(this.n);
    this.chain = new SqliteChainReader(this.n);
    this.writer = new SqliteWriterLock(takeWriterLock ? writerLockPath(db, id) : null, id);
  }

  async claimWriter(): Promise<void> {
    this.writer.hold();
  }

  /** Lets go of the writer lock (the store closes). */
  releaseWriter(): void {
    this.writer.release();
  }

  // immediate: take the write lock up front so a concurrent reader cannot force a busy upgrade mid-batch.
  private write<T>(fn: () => T): T {
    this.writer.hold();
    return this.db.transaction(fn).immediate();
  }

  async connectBlocks(blocks: readonly BlockToConnect[]): Promise<ConnectedBlock[]> {
    try {
      const connected = this.write(() => {
        // Read under the write lock, so no other connection can commit between this check and our writes: a
        // changed version means another connection (another process) committed, and its script rows may differ.
        const version = this.db.pragma('data_version', { simple: true }) as bigint;
        if (version !== this.dataVersion) {
          this.scripts.clear();
          this.dataVersion = version;
        }
        return connectBlocksSync(this.n, blocks, this.scripts);
      });
      this.scripts.commit();
      return connected;
    } catch (err) {
      this.scripts.abort();
      throw err;
    }
  }

  async disconnectTip(expectedHash: string): Promise<DisconnectedBlock> {
    this.scripts.clear();
    return this.write(() => disconnectTipSync(this.n, expectedHash));
  }

  async addMempoolTxs(entries: readonly MempoolEntry[]): Promise<MempoolAddResult[]> {
    // It may insert scripts the cache does not see.
    this.scripts.forgetCompleteness();
    return this.write(() => addMempoolTxsSync(this.n, entries));
  }

  async removeMempoolTxs(txids: readonly string[], reason: MempoolRemoveReason): Promise<string[]> {
    return this.write(() => removeMempoolTxsSync(this.n, txids, reason));
  }

  async pruneRemovedMempool(removedBefore: number, limit: number): Promise<number> {
    this.writer.hold();
    // Removed rows have no outputs or spends left (removal deleted them), so the tx row is all there is.
    const result = this.n.st.get(`DELETE FROM ${this.n.t.mempoolTxs} WHERE rowid IN
      (SELECT rowid FROM ${this.n.t.mempoolTxs} WHERE removed = 1 AND removed_at < ? LIMIT ?)`).run(removedBefore, limit);
    return result.changes;
  }

  async getBulkLoad(): Promise<BulkLoadState | null> {
    return readBulkLoad(this.n);
  }

  async beginBulkLoad(startedAt: number): Promise<void> {
    this.scripts.clear();
    this.recentScripts = new RecentKeys();
    this.write(() => beginBulkLoadSync(this.n, startedAt));
  }

  async loadBlocks(blocks: readonly BlockToConnect[]): Promise<ChainTip> {
    return this.write(() => loadBlocksSync(this.n, blocks, this.recentScripts));
  }

  async finishBulkLoad(onStep?: (step: BulkBuildStep) => void | Promise<void>, rawTxs?: RawTxSource): Promise<void> {
    this.writer.hold();
    await finishBulkLoad(this.n, onStep, rawTxs);
    this.scripts.clear();
    this.pagesFreed();
  }

  async resetChain(): Promise<void> {
    this.scripts.clear();
    this.write(() => resetChainSync(this.n));
    this.pagesFreed();
  }

  async setSyncStatus(status: SyncStatus | null): Promise<void> {
    this.writer.hold();
    writeSyncStatus(this.n.st, this.n.net, status);
  }

  async getSyncStatus(): Promise<SyncStatus | null> {
    return readSyncStatus(this.n.st, this.n.net);
  }

  async getTip(): Promise<ChainTip | null> {
    return readTip(this.n);
  }

  async getMainChainHash(height: number): Promise<string | null> {
    return this.chain.mainChainHash(height);
  }

  async getAddressTotals(script: Uint8Array, options?: AddressTotalsOptions): Promise<AddressTotals> {
    return this.address.totals(script, options);
  }

  async getAddressHistory(script: Uint8Array, options: HistoryOptions): Promise<AddressHistoryEntry[]> {
    return this.address.history(script, options);
  }

  async getUnspent(script: Uint8Array, options: UnspentOptions): Promise<UnspentOutput[]> {
    return this.address.unspent(script, options);
  }

  async getTransaction(txid: string): Promise<TxRecord | null> {
    return this.chain.transaction(txid);
  }

  async getOutputs(txid: string): Promise<OutputRecord[] | null> {
    return this.chain.outputs(txid);
  }

  async getBlockByHash(hash: string): Promise<BlockRecord | null> {
    return this.chain.blockByHash(hash);
  }

  async getBlockByHeight(height: number): Promise<BlockRecord | null> {
    return this.chain.blockByHeight(height);
  }

  async getMempoolInfo(): Promise<MempoolInfo> {
    return this.chain.mempoolInfo();
  }

  async getMempoolEntries(): Promise<MempoolTxSummary[]> {
    return this.chain.mempoolEntries();
  }

  async getMempoolTxids(): Promise<string[]> {
    return this.chain.mempoolTxids();
  }
}
