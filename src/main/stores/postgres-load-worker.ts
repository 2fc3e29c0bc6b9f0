/**
 * Worker thread of an initial load into PostgreSQL (postgres-worker-loader.ts starts it): parses the raw blocks it is
 * sent and encodes their rows as COPY payloads (postgres-bulk-encode.ts), which it sends back. It opens no connection:
 * the indexer's thread writes them on its writer session, while this thread encodes the next batch.
 */
import { workerData } from 'node:worker_threads';
import type { ChainKind, NetworkId } from '../../core/domain/network.js';
import type { RawTxMode } from '../../core/sources/raw-txs.js';
import { BufferPool } from '../../core/infrastructure/buffer-pool.js';
import { getNetworkParams } from '../../chains/networks.js';
import { parseRawBlocks } from '../../indexer/initial-load.js';
import { RecentKeys } from '../../store/common/chain-writes/bulk-rows.js';
import { ScriptKeys, type ScriptKeyParams } from '../../store/common/chain-writes/script-keys.js';
import { encodeBulkBatch, encodeHeldRelease, payloadBuffers, type EncodedBulkBatch, type EncodedRelease } from '../../store/postgres/chain/postgres-bulk-encode.js';
import { HeldOutputs } from '../../store/postgres/chain/postgres-held-outputs.js';
import { PgNet } from '../../store/postgres/chain/postgres-net.js';
import { serveLoadRequests, unpackRaws, type PackedRaws } from './load-worker-channel.js';

export interface PgLoadWorkerData {
  readonly network: NetworkId;
  readonly chain: ChainKind;
  /** `[store] raw_txs`: with "node" no raw txs are encoded either. */
  readonly rawTxs?: RawTxMode;
  /** How many txs' outputs the worker holds at most (postgres-held-outputs.ts; default HELD_TXS): tests make it small. */
  readonly heldTxs?: number;
  /** The smallest buffer the load reuses (buffer-pool.ts; default 64 KiB): tests make it 0. */
  readonly poolMinBytes?: number;
}

/** A batch to encode: its first tx's id and the database's script keys come from the indexer's thread. */
export interface PgEncodeRequest extends PackedRaws {
  readonly firstId: number;
  readonly keys: ScriptKeyParams;
  /** Write every output still held with this batch (the load's last). */
  readonly releaseAll?: boolean;
  /** The payloads' buffers of the batches written since the last request, for the next payloads (buffer-pool.ts). */
  readonly returned?: readonly ArrayBuffer[];
}

/** An encoded batch, and the buffer its raw blocks came in, sent back for the next batch's (buffer-pool.ts). */
export interface PgEncodeReply {
  readonly batch: EncodedBulkBatch;
  readonly raws: ArrayBuffer;
}

/** The load's end: every output still held, to write (postgres-held-outputs.ts). */
export interface PgReleaseRequest {
  readonly release: true;
}

export type PgLoadRequest = PgEncodeRequest | PgReleaseRequest;
export type PgLoadReply = PgEncodeReply | EncodedRelease;

const { network, chain, rawTxs, heldTxs, poolMinBytes } = workerData as PgLoadWorkerData;
const n = new PgNet(network, rawTxs ? { rawTxs } : {});
const { features } = getNetworkParams(network, chain);
// Scripts staged lately, across this worker's batches (as the inline load keeps them across its own).
const recent = new RecentKeys();
// The latest batches' outputs, written once a later batch may no longer spend them (or at the load's end).
const held = new HeldOutputs(heldTxs);
let keys: ScriptKeys | null = null;
// The payloads' memory, back from the indexer's thread once written: reused, not faulted in again for every batch.
const pool = new BufferPool(undefined, poolMinBytes);

serveLoadRequests<PgLoadRequest, PgLoadReply>(
  async (request) => {
    // Payloads are transferred, not copied (payloadBuffers).
    if ('release' in request) {
      const release = encodeHeldRelease(n, held, pool);
      return { result: release, transfer: payloadBuffers(release.copies) };
    }
    for (const buffer of request.returned ?? []) pool.give(buffer);
    keys ??= ScriptKeys.from(request.keys);
    const batch = encodeBulkBatch(n, parseRawBlocks(request.fromHeight, unpackRaws(request), features), request.firstId, keys, recent, held, request.releaseAll === true, pool);
    // Nothing encoded refers to the raw blocks any more (held outputs and recent scripts keep copies).
    const raws = request.bytes.buffer as ArrayBuffer;
    return { result: { batch, raws }, transfer: [...payloadBuffers(batch.copies), raws] };
  },
  async () => undefined,
);
