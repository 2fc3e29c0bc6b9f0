/**
 * A network's reader as services see it: every chain read passes the SyncGate first, so no service path (today's or a
 * future one) can answer from a half-built index. Reads that need no index (the sync status itself) pass through.
 */
import type { NetworkId } from '../../core/domain/network.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, BlockHeaderRecord, BlockRecord, HashPrefixMatches, HistoryOptions, MempoolInfo, MempoolTxSummary, OutputRecord, TxRecord, UnspentOptions, UnspentOutput } from '../../core/store/chain-reads.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { ScriptSetReader } from '../../core/store/script-set-reads.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import type { SyncGate } from './sync-gate.js';

export class GatedNetworkReader implements NetworkReader {
  readonly scriptSets: ScriptSetReader;

  constructor(
    private readonly id: NetworkId,
    private readonly inner: NetworkReader,
    private readonly gate: SyncGate,
  ) {
    const sets = inner.scriptSets;
    this.scriptSets = {
      getScriptTotals: (scripts) => this.read(() => sets.getScriptTotals(scripts)),
      getScriptSetTxCount: (scripts) => this.read(() => sets.getScriptSetTxCount(scripts)),
      getScriptSetSummary: (scripts) => this.read(() => sets.getScriptSetSummary(scripts)),
      getScriptSetFlows: (scripts) => this.read(() => sets.getScriptSetFlows(scripts)),
      getScriptSetHistory: (scripts, page) => this.read(() => sets.getScriptSetHistory(scripts, page)),
      getScriptSetUnspent: (scripts, page) => this.read(() => sets.getScriptSetUnspent(scripts, page)),
    };
  }

  /** No await while the gate's cached status is fresh: the common path costs a map lookup and a clock read. */
  private read<T>(query: () => Promise<T>): Promise<T> {
    let pending: void | Promise<void>;
    try {
      pending = this.gate.check(this.id);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return pending ? pending.then(query) : query();
  }

  getSyncStatus(): Promise<SyncStatus | null> {
    return this.inner.getSyncStatus();
  }

  getTip(): Promise<ChainTip | null> {
    return this.read(() => this.inner.getTip());
  }

  getMainChainHash(height: number): Promise<string | null> {
    return this.read(() => this.inner.getMainChainHash(height));
  }

  getAddressTotals(script: Uint8Array, options?: AddressTotalsOptions): Promise<AddressTotals> {
    return this.read(() => this.inner.getAddressTotals(script, options));
  }

  getAddressHistory(script: Uint8Array, options: HistoryOptions): Promise<AddressHistoryEntry[]> {
    return this.read(() => this.inner.getAddressHistory(script, options));
  }

  getUnspent(script: Uint8Array, options: UnspentOptions): Promise<UnspentOutput[]> {
    return this.read(() => this.inner.getUnspent(script, options));
  }

  getTransaction(txid: string): Promise<TxRecord | null> {
    return this.read(() => this.inner.getTransaction(txid));
  }

  getOutputs(txid: string): Promise<OutputRecord[] | null> {
    return this.read(() => this.inner.getOutputs(txid));
  }

  getBlockByHash(hash: string): Promise<BlockRecord | null> {
    return this.read(() => this.inner.getBlockByHash(hash));
  }

  getBlockByHeight(height: number): Promise<BlockRecord | null> {
    return this.read(() => this.inner.getBlockByHeight(height));
  }

  getBlockHeaders(fromHeight: number, toHeight: number): Promise<BlockHeaderRecord[]> {
    return this.read(() => this.inner.getBlockHeaders(fromHeight, toHeight));
  }

  getMempoolInfo(): Promise<MempoolInfo> {
    return this.read(() => this.inner.getMempoolInfo());
  }

  getMempoolEntries(): Promise<MempoolTxSummary[]> {
    return this.read(() => this.inner.getMempoolEntries());
  }

  getMempoolEntriesOf(txids: readonly string[]): Promise<MempoolTxSummary[]> {
    return this.read(() => this.inner.getMempoolEntriesOf(txids));
  }

  getMempoolTxids(): Promise<string[]> {
    return this.read(() => this.inner.getMempoolTxids());
  }

  findHashPrefix(prefix: string, limit: number): Promise<HashPrefixMatches> {
    return this.read(() => this.inner.findHashPrefix(prefix, limit));
  }
}
