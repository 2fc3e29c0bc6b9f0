/**
 * The initial load's RawBlockLoader for PostgreSQL stores: a worker thread (postgres-load-worker.ts) parses each batch
 * and encodes its rows as COPY payloads; this thread writes them on the network's writer session. A batch is handed
 * over once encoded and the batch before it is written, so the worker encodes batch N + 1 while the server takes in
 * batch N (inline, parsing and the server's COPY took turns). The tip written lags the tip reported by at most one
 * batch: a write's failure rejects the next load() or close(), and a killed process loads again from the tip written.
 */
import type { ChainTip } from '../../core/index.js';
import type { RawBlockLoader } from '../../indexer/initial-load.js';
import type { ScriptKeyParams } from '../../store/common/chain-writes/script-keys.js';
import type { EncodedBulkBatch } from '../../store/postgres/chain/postgres-bulk-encode.js';
import { packRaws, startLoadWorker } from './load-worker-channel.js';
import type { PgLoadRequest, PgLoadWorkerData } from './postgres-load-worker.js';

/** What the loader needs of the network's PostgreSQL store (PostgresNetworkStore). */
export interface EncodedBatchWriter {
  bulkEncoding(): Promise<{ nextTx: number; keys: ScriptKeyParams }>;
  loadEncoded(batch: EncodedBulkBatch): Promise<ChainTip>;
}

export function postgresWorkerLoader(writer: EncodedBatchWriter, data: PgLoadWorkerData): RawBlockLoader {
  const worker = startLoadWorker<PgLoadRequest, EncodedBulkBatch>(import.meta.url, 'postgres-load-worker', data);
  let setup: Promise<{ nextTx: number; keys: ScriptKeyParams }> | null = null;
  let nextId = 0;
  let writing: Promise<ChainTip> | null = null;
  return {
    writesBehind: true,
    async load(fromHeight, raws) {
      setup ??= writer.bulkEncoding().then((s) => {
        nextId = s.nextTx;
        return s;
      });
      const { keys } = await setup;
      const packed = packRaws(fromHeight, raws);
      const batch = await worker.request({ ...packed, firstId: nextId, keys }, [packed.bytes.buffer as ArrayBuffer]);
      nextId += batch.txCount;
      // At most one batch in the server's hands: the one before must be written (its failure is this call's).
      if (writing) await writing;
      writing = writer.loadEncoded(batch);
      // Handled here, reported by the next load() or close().
      writing.catch(() => undefined);
      return batch.newTip;
    },
    async close() {
      try {
        await writing;
      } finally {
        await worker.close();
      }
    },
  };
}
