/**
 * NetworkStore over one SQLite connection: each write is one synchronous better-sqlite3 transaction, written only
 * while this process holds the network's writer lock (sqlite-writer-lock.ts; WriterStandbyError otherwise).
 */
import type Database from 'better-sqlite3';
import type { NetworkId } from '../../../core/domain/network.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock, MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import type { BulkBuildStep, NetworkStore } from '../../../core/store/network-store.js';
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import { ScriptCache } from '../../common/chain-writes/script-cache.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { PlannedChainReads } from '../../common/chain-reads/planned-chain-reads.js';
import type { ChainReadPlans } from '../../common/chain-reads/chain-read-plans.js';
import { writeSyncStatus } from '../../common/schema/network-rows.js';
import type { Plan } from '../../common/sql/sql-plan.js';
import { finishBulkLoad } from './sqlite-bulk-build.js';
import { beginBulkLoadSync, loadBlocksSync, resetChainSync } from './sqlite-bulk-load.js';
import { SqliteAddressReader } from './sqlite-address-reader.js';
import { connectBlocksSync, disconnectTipSync } from './sqlite-chain-writer.js';
import { addMempoolTxsSync } from './sqlite-mempool-writer.js';
import { pruneRemovedMempool, removeMempoolTxs } from '../../common/chain-writes/mempool-removal.js';
import { SqliteScriptSetReader } from './sqlite-script-set-reader.js';
import { buildScriptHashesSync } from './sqlite-script-hashes.js';
import { PlannedScriptHashReader } from '../../common/chain-reads/planned-script-hash-reader.js';
import { ScriptHashPlans } from '../../common/chain-reads/script-hash-plans.js';
import type { ScriptHashIndexState } from '../../../core/store/script-hash-reads.js';
import { SqliteNet } from './sqlite-net.js';
import { readSqlite } from '../connection/sqlite-plans.js';
import type { Statements } from '../connection/sqlite-statements.js';
import { SqliteWriterLock, writerLockPath } from '../connection/sqlite-writer-lock.js';

export class SqliteNetworkStore extends PlannedChainReads implements NetworkStore {
  private readonly n: SqliteNet;
  protected readonly netCode: number;
  protected readonly plans: ChainReadPlans;
  protected readonly address: SqliteAddressReader;
  readonly scriptSets: SqliteScriptSetReader;
  readonly scriptHashes: PlannedScriptHashReader;
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
    super();
    this.n = new SqliteNet(st, id, options);
    this.netCode = this.n.net;
    this.plans = this.n.reads;
    this.address = new SqliteAddressReader(this.n);
    this.scriptSets = new SqliteScriptSetReader(this.n);
    this.scriptHashes = new PlannedScriptHashReader((plan) => this.read(plan), new ScriptHashPlans(this.n));
    this.writer = new SqliteWriterLock(takeWriterLock ? writerLockPath(db, id) : null, id);
  }

  /** In one read transaction, synchronously (async only so that a throw becomes a rejection). */
  protected async read<T>(plan: Plan<T>): Promise<T> {
    return readSqlite(this.n.st, plan);
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
    return this.write(() => this.n.run(removeMempoolTxs(this.n, txids, reason)));
  }

  async pruneRemovedMempool(removedBefore: number, limit: number): Promise<number> {
    this.writer.hold();
    return this.n.run(pruneRemovedMempool(this.n, removedBefore, limit));
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

  async buildScriptHashIndex(limit: number): Promise<ScriptHashIndexState> {
    return this.write(() => buildScriptHashesSync(this.n, limit));
  }

  async setSyncStatus(status: SyncStatus | null): Promise<void> {
    this.writer.hold();
    this.n.run(writeSyncStatus(this.n.net, status));
  }
}
