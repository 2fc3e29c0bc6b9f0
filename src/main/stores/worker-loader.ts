/**
 * The initial load's RawBlockLoader for SQLite stores: a worker thread (sqlite-load-worker.ts) with its own connection
 * parses and appends each batch while this thread fetches the next one. Batches cross as one transferred buffer (no
 * copy on the other side), which comes back with the reply to carry a later batch (buffer-pool.ts: fresh memory costs
 * a page fault per page on the VMs we run on); a load is atomic in the store as on this thread.
 */
import { BufferPool } from '../../core/infrastructure/buffer-pool.js';
import type { RawBlockLoader } from '../../indexer/initial-load.js';
import { packRaws, startLoadWorker, type PackedRaws } from './load-worker-channel.js';
import type { LoadWorkerData, SqliteLoadReply } from './sqlite-load-worker.js';

export function sqliteWorkerLoader(data: LoadWorkerData): RawBlockLoader {
  const worker = startLoadWorker<PackedRaws, SqliteLoadReply>(import.meta.url, 'sqlite-load-worker', data);
  const raws = new BufferPool(undefined, data.poolMinBytes);
  return {
    async load(fromHeight, blocks) {
      const packed = packRaws(fromHeight, blocks, raws);
      const reply = await worker.request(packed, [packed.bytes.buffer as ArrayBuffer]);
      raws.give(reply.raws);
      return reply.tip;
    },
    close: () => worker.close(),
  };
}
