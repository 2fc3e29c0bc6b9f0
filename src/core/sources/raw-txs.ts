/**
 * Raw transactions kept by the node instead of the store (`[store] raw_txs = "node"`, docs/indexer.md "Raw
 * transactions"): the store keeps what it derives from them (outputs, spends, totals) and where each tx is (its block
 * and position), and a RawTxSource asks the node for the bytes when an answer shows them.
 */

/** "store": confirmed txs' raw bytes are written to the store (tx_raws_n); "node": they are read from the node. */
export type RawTxMode = 'store' | 'node';

export const RAW_TX_MODES: readonly RawTxMode[] = ['store', 'node'];

/** Where a confirmed (or orphaned) transaction is: enough to cut it out of its block. */
export interface RawTxLocation {
  readonly txid: string;
  /** The block holding it: main chain or orphaned (the node keeps orphaned blocks). */
  readonly blockHash: string;
  /** Its index in the block (0 = coinbase). */
  readonly position: number;
}

/** One network's raw transactions as the node has them. */
export interface RawTxSource {
  /**
   * The raw bytes of each tx, in the order asked. Rejects with RawTxUnavailableError when the node cannot be reached or
   * no longer has the block (pruned); never answers with other bytes than the txid's.
   */
  rawTxs(locations: readonly RawTxLocation[]): Promise<Uint8Array[]>;
  /** A block's txs (in order) the caller already has (the indexer, of a block it just connected): kept in the source's cache. */
  remember?(blockHash: string, txs: readonly { readonly txid: string; readonly raw: Uint8Array }[]): void;
}
