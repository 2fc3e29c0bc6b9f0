/**
 * `[store] raw_txs` at the start of a writer process (docs/indexer.md, "Raw transactions"). store → node: the stored raw
 * txs are deleted and their space given back (the node has every one of them; nothing is lost that a rebuild could not
 * bring back). node → store: new blocks' txs are stored from now on; those indexed before keep coming from the node
 * until `outpoint index --bulk` rebuilds the index, which stores them all. Either way every answer stays exact.
 */
import type { ChainStore, Logger, RawTxMode } from '../../core/index.js';

export async function applyRawTxMode(store: ChainStore, mode: RawTxMode, logger: Logger): Promise<void> {
  const { previous, deleted } = await store.applyRawTxMode(mode);
  if (deleted > 0) logger.warn('raw_txs = "node": stored raw transactions deleted, their space given back; the node serves them now', { deleted, previous });
  if (previous === 'node' && mode === 'store') {
    logger.warn('raw_txs = "store": new transactions are stored; those indexed before still come from the node until `outpoint index --bulk` rebuilds the index', {});
  }
}
