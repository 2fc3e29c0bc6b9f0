/**
 * Worker thread of an initial load into PostgreSQL (postgres-worker-loader.ts starts it): parses the raw blocks it is
 * sent and encodes their rows as COPY payloads (postgres-bulk-encode.ts), which it sends back. It opens no connection:
 * the indexer's thread writes them on its writer session, while this thread encodes the next batch.
 */
import { workerData } from 'node:worker_threads';
import type { ChainKind, NetworkId } from '../../core/domain/network.js';
import type { RawTxMode } from '../../core/sources/raw-txs.js';
import { getNetworkParams } from '../../chains/networks.js';
import { parseRawBlocks } from '../../indexer/initial-load.js';
import { RecentKeys } from '../../store/common/chain-writes/bulk-rows.js';
import { ScriptKeys, type ScriptKeyParams } from '../../store/common/chain-writes/script-keys.js';
import { encodeBulkBatch, type EncodedBulkBatch } from '../../store/postgres/chain/postgres-bulk-encode.js';
import { PgNet } from '../../store/postgres/chain/postgres-net.js';
import { serveLoadRequests, unpackRaws, type PackedRaws } from './load-worker-channel.js';

export interface PgLoadWorkerData {
  readonly network: NetworkId;
  readonly chain: ChainKind;
  /** `[store] raw_txs`: with "node" no raw txs are encoded either. */
  readonly rawTxs?: RawTxMode;
}

/** A batch to encode: its first tx's id and the database's script keys come from the indexer's thread. */
export interface PgLoadRequest extends PackedRaws {
  readonly firstId: number;
  readonly keys: ScriptKeyParams;
}

const { network, chain, rawTxs } = workerData as PgLoadWorkerData;
const n = new PgNet(network, rawTxs ? { rawTxs } : {});
const { features } = getNetworkParams(network, chain);
// Scripts staged lately, across this worker's batches (as the inline load keeps them across its own).
const recent = new RecentKeys();
let keys: ScriptKeys | null = null;

serveLoadRequests<PgLoadRequest, EncodedBulkBatch>(
  async (request) => {
    keys ??= ScriptKeys.from(request.keys);
    const batch = encodeBulkBatch(n, parseRawBlocks(request.fromHeight, unpackRaws(request), features), request.firstId, keys, recent);
    // Payloads of our own to transfer (no copy on the other side): a small one may sit in Node's shared buffer pool.
    const copies = batch.copies.map((c) => ({ target: c.target, payload: new Uint8Array(c.payload) }));
    return { result: { ...batch, copies }, transfer: copies.map((c) => c.payload.buffer as ArrayBuffer) };
  },
  async () => undefined,
);
