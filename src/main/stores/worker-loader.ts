/**
 * The initial load's RawBlockLoader for SQLite stores: a worker thread (sqlite-load-worker.ts) with its own connection
 * parses and appends each batch while this thread fetches the next one. Batches cross as one transferred buffer (no
 * copy on the other side); a load is atomic in the store as on this thread.
 */
import type { ChainTip } from '../../core/index.js';
import type { RawBlockLoader } from '../../indexer/initial-load.js';
import { packRaws, startLoadWorker, type PackedRaws } from './load-worker-channel.js';
import type { LoadWorkerData } from './sqlite-load-worker.js';

export function sqliteWorkerLoader(data: LoadWorkerData): RawBlockLoader {
  const worker = startLoadWorker<PackedRaws, ChainTip>(import.meta.url, 'sqlite-load-worker', data);
  return {
    load(fromHeight, raws) {
      const packed = packRaws(fromHeight, raws);
      return worker.request(packed, [packed.bytes.buffer as ArrayBuffer]);
    },
    close: () => worker.close(),
  };
}
