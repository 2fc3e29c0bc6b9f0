/**
 * Worker thread of an initial load into SQLite (worker-loader.ts starts it): parses the raw blocks it is sent and
 * appends them through its own connection to the store file. SQLite's writes are synchronous, so on the indexer's
 * thread they would stop everything else; here they run while that thread fetches the next batch from the node.
 */
import { workerData } from 'node:worker_threads';
import type { ChainTip } from '../../core/domain/chain-types.js';
import type { ChainKind, NetworkId } from '../../core/domain/network.js';
import type { RawTxMode } from '../../core/sources/raw-txs.js';
import { getNetworkParams } from '../../chains/networks.js';
import { parseRawBlocks } from '../../indexer/initial-load.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { AUTO_CACHE_MIN_MB } from '../../store/sqlite/connection/sqlite-cache-size.js';
import { serveLoadRequests, unpackRaws, type PackedRaws } from './load-worker-channel.js';

export interface LoadWorkerData {
  readonly path: string;
  readonly network: NetworkId;
  readonly chain: ChainKind;
  /** `[store] raw_txs`: with "node" the worker writes no raw txs either. */
  readonly rawTxs?: RawTxMode;
  /** The smallest buffer the load reuses (buffer-pool.ts; default 64 KiB): tests make it 0. */
  readonly poolMinBytes?: number;
}

/** The batch's tip, and the buffer its raw blocks came in, for the indexer's thread to pack a later batch into. */
export interface SqliteLoadReply {
  readonly tip: ChainTip;
  readonly raws: ArrayBuffer;
}

const { path, network, chain, rawTxs } = workerData as LoadWorkerData;
// The indexer's thread claimed the network's writer lock for this process before starting the worker.
// The bulk load's batches were tuned with the small cache, and its peak RSS is bounded whatever the chain's length: the
// automatic size, which grows with the file, is for following the tip (sqlite-cache-size.ts).
const store = new SqliteStore({ path, inWriterProcess: true, cacheMb: AUTO_CACHE_MIN_MB, ...(rawTxs ? { rawTxs } : {}) });
const net = store.network(network);
const { features } = getNetworkParams(network, chain);

serveLoadRequests<PackedRaws, SqliteLoadReply>(
  async (packed) => {
    const tip = await net.loadBlocks(parseRawBlocks(packed.fromHeight, unpackRaws(packed), features));
    // Written and committed: nothing refers to the raw blocks any more (SQLite copied what it bound; the recent
    // scripts are kept as strings), so their buffer goes back without a copy.
    const raws = packed.bytes.buffer as ArrayBuffer;
    return { result: { tip, raws }, transfer: [raws] };
  },
  () => store.close(),
);
