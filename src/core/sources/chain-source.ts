import type { TxidList } from '../domain/txid-set.js';

/**
 * What the indexer needs from a full node. The node driver implements it over JSON-RPC;
 * the indexer depends on this interface only, so it never imports the driver.
 */
export interface ChainSource {
  getBestBlockHash(): Promise<string>;
  getBlockCount(): Promise<number>;
  /** Main-chain hash at `height`, or null above the node's tip. */
  getBlockHashAt(height: number): Promise<string | null>;
  /** Main-chain hashes of `count` consecutive heights from `from` (one batched round trip). */
  getBlockHashes(from: number, count: number): Promise<string[]>;
  getRawBlocks(hashes: readonly string[]): Promise<Uint8Array[]>;
  getRawMempool(): Promise<string[]>;
  /**
   * The same list, read by position without a string per txid (txid-set.ts): what the indexer diffs at every poll.
   * Optional: sources without it are read with getRawMempool.
   */
  getMempoolTxidList?(): Promise<TxidList>;
  /** Raw bytes per txid, null for txids the node no longer has. */
  getRawTransactions(txids: readonly string[]): Promise<(Uint8Array | null)[]>;
}
