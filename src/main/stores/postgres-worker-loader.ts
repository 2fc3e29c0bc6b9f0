/**
 * The initial load's RawBlockLoader for PostgreSQL stores: a worker thread (postgres-load-worker.ts) parses each batch
 * and encodes its rows as COPY payloads; this thread writes them on the network's writer session. A batch is handed
 * over once encoded and the batch before it is written, so the worker encodes batch N + 1 while the server takes in
 * batch N (inline, parsing and the server's COPY took turns). The tip written lags the tip reported by at most one
 * batch: a write's failure rejects the next load() or close(), and a killed process loads again from the tip written.
 * The worker holds the latest batches' outputs (postgres-held-outputs.ts); close() writes them once every batch is
 * written, and a killed load rewinds to the last block whose outputs were written (postgres-bulk-held.ts).
 */
import type { ChainTip } from '../../core/index.js';
import { BufferPool } from '../../core/infrastructure/buffer-pool.js';
import type { RawBlockLoader } from '../../indexer/initial-load.js';
import type { ScriptKeyParams } from '../../store/common/chain-writes/script-keys.js';
import { payloadBuffers, type EncodedBulkBatch, type EncodedRelease } from '../../store/postgres/chain/postgres-bulk-encode.js';
import { packRaws, startLoadWorker } from './load-worker-channel.js';
import type { PgEncodeReply, PgLoadReply, PgLoadRequest, PgLoadWorkerData } from './postgres-load-worker.js';

/** What the loader needs of the network's PostgreSQL store (PostgresNetworkStore). */
export interface EncodedBatchWriter {
  bulkEncoding(): Promise<{ nextTx: number; keys: ScriptKeyParams }>;
  loadEncoded(batch: EncodedBulkBatch): Promise<ChainTip>;
  loadRelease(release: EncodedRelease): Promise<void>;
}

export function postgresWorkerLoader(writer: EncodedBatchWriter, data: PgLoadWorkerData): RawBlockLoader {
  const worker = startLoadWorker<PgLoadRequest, PgLoadReply>(import.meta.url, 'postgres-load-worker', data);
  let setup: Promise<{ nextTx: number; keys: ScriptKeyParams }> | null = null;
  let nextId = 0;
  let writing: Promise<ChainTip> | null = null;
  // Memory passed back and forth instead of taken fresh for every batch (buffer-pool.ts): the raw blocks' buffer
  // comes back with the batch encoded from it; the payloads go back to the worker with the request after their write.
  const raws = new BufferPool(undefined, data.poolMinBytes);
  let inServer: EncodedBulkBatch | null = null;
  let written: ArrayBuffer[] = [];
  return {
    writesBehind: true,
    async load(fromHeight, blocks, last) {
      setup ??= writer.bulkEncoding().then((s) => {
        nextId = s.nextTx;
        return s;
      });
      const { keys } = await setup;
      const packed = packRaws(fromHeight, blocks, raws);
      const returned = written;
      written = [];
      // The last batch writes every output still held with its own (encoded here, while the batch before is written).
      const reply = await worker.request(
        { ...packed, firstId: nextId, keys, releaseAll: last === true, returned },
        [packed.bytes.buffer as ArrayBuffer, ...returned],
      ) as PgEncodeReply;
      raws.give(reply.raws);
      const { batch } = reply;
      nextId += batch.txCount;
      // At most one batch in the server's hands: the one before must be written (its failure is this call's).
      if (writing) await writing;
      // Written: the server has acknowledged its COPYs, so nothing reads its payloads any more.
      if (inServer) written = payloadBuffers(inServer.copies);
      inServer = batch;
      writing = writer.loadEncoded(batch);
      // Handled here, reported by the next load() or close().
      writing.catch(() => undefined);
      return batch.newTip;
    },
    async close() {
      // The outputs the worker still holds, encoded while the server takes in the last batch, written after it (a
      // failed write leaves them to the rewind of the next start, which loads their blocks again).
      const release = writing ? worker.request({ release: true }, []) as Promise<EncodedRelease> : null;
      release?.catch(() => undefined);
      try {
        await writing;
        const rest = await release;
        // Nothing left after a last batch: no write.
        if (rest && (rest.copies.length > 0 || rest.heldFrom !== rest.next)) await writer.loadRelease(rest);
      } finally {
        await worker.close();
      }
    },
  };
}
