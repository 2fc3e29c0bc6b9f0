/**
 * The half of NetworkStore that reads, written once: by txid, block and mempool over the shared plans
 * (chain-read-plans.ts, network-rows.ts), each engine's network store saying only how a plan is run; by address
 * through the engine's own reader (their fast paths differ: one round trip on PostgreSQL, json_each lists on SQLite).
 */
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import type {
  AddressHistoryEntry, AddressTotals, AddressTotalsOptions, BlockHeaderRecord, BlockRecord, HashPrefixMatches, HistoryOptions, MempoolInfo, MempoolTxSummary, OutputRecord, TxRecord,
  UnspentOptions, UnspentOutput,
} from '../../../core/store/chain-reads.js';
import type { BulkLoadState } from '../../../core/store/network-store.js';
import { readBulkLoad, readSyncStatus, readTip } from '../schema/network-rows.js';
import type { Plan } from '../sql/sql-plan.js';
import type { ChainReadPlans } from './chain-read-plans.js';

/** An engine's address reads (answers may be synchronous). */
export interface AddressReads {
  totals(script: Uint8Array, options?: AddressTotalsOptions): AddressTotals | Promise<AddressTotals>;
  history(script: Uint8Array, options: HistoryOptions): AddressHistoryEntry[] | Promise<AddressHistoryEntry[]>;
  unspent(script: Uint8Array, options: UnspentOptions): UnspentOutput[] | Promise<UnspentOutput[]>;
}

export abstract class PlannedChainReads {
  /** The network's code in the shared tables. */
  protected abstract readonly netCode: number;
  protected abstract readonly plans: ChainReadPlans;
  protected abstract readonly address: AddressReads;

  /** Runs a read plan (SQLite: synchronously in one read transaction; PostgreSQL: on the pool). */
  protected abstract read<T>(plan: Plan<T>): Promise<T>;

  getTip(): Promise<ChainTip | null> {
    return this.read(readTip(this.netCode));
  }

  getBulkLoad(): Promise<BulkLoadState | null> {
    return this.read(readBulkLoad(this.netCode));
  }

  getSyncStatus(): Promise<SyncStatus | null> {
    return this.read(readSyncStatus(this.netCode));
  }

  getMainChainHash(height: number): Promise<string | null> {
    return this.read(this.plans.mainChainHash(height));
  }

  getTransaction(txid: string): Promise<TxRecord | null> {
    return this.read(this.plans.transaction(txid));
  }

  getOutputs(txid: string): Promise<OutputRecord[] | null> {
    return this.read(this.plans.outputs(txid));
  }

  getBlockByHash(hash: string): Promise<BlockRecord | null> {
    return this.read(this.plans.blockByHash(hash));
  }

  getBlockByHeight(height: number): Promise<BlockRecord | null> {
    return this.read(this.plans.blockByHeight(height));
  }

  getBlockHeaders(fromHeight: number, toHeight: number): Promise<BlockHeaderRecord[]> {
    return this.read(this.plans.blockHeaders(fromHeight, toHeight));
  }

  getMempoolInfo(): Promise<MempoolInfo> {
    return this.read(this.plans.mempoolInfo());
  }

  getMempoolEntries(): Promise<MempoolTxSummary[]> {
    return this.read(this.plans.mempoolEntries());
  }

  getMempoolEntriesOf(txids: readonly string[]): Promise<MempoolTxSummary[]> {
    return this.read(this.plans.mempoolEntriesOf(txids));
  }

  getMempoolTxids(): Promise<string[]> {
    return this.read(this.plans.mempoolTxids());
  }

  findHashPrefix(prefix: string, limit: number): Promise<HashPrefixMatches> {
    return this.read(this.plans.hashPrefix(prefix, limit));
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
}
