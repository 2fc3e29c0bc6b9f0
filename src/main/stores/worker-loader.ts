/**
 * The initial load's RawBlockLoader for SQLite stores: a worker thread (sqlite-load-worker.ts) with its own connection
 * parses and appends each batch while this thread fetches the next one. Batches cross as one transferred buffer (no
 * copy on the other side); a load is atomic in the store as on this thread.
 */
import { startModuleWorker } from '../../core/infrastructure/module-worker.js';
import type { ChainTip } from '../../core/index.js';
import { StoreError } from '../../core/domain/errors.js';
import type { RawBlockLoader } from '../../indexer/initial-load.js';
import type { LoadRequest, LoadWorkerData } from './sqlite-load-worker.js';

interface Reply {
  readonly id: number;
  readonly tip?: ChainTip;
  readonly error?: string;
}

export function sqliteWorkerLoader(data: LoadWorkerData): RawBlockLoader {
  const worker = startModuleWorker(import.meta.url, 'sqlite-load-worker', { workerData: data });
  const waiting = new Map<number, { resolve: (tip: ChainTip) => void; reject: (err: Error) => void }>();
  let nextId = 0;
  let failed: Error | null = null;
  const failAll = (err: Error): void => {
    failed = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (msg: Reply | 'closed') => {
    if (msg === 'closed') return;
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error !== undefined) w?.reject(new StoreError(msg.error));
    else w?.resolve(msg.tip!);
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new StoreError(`initial load worker exited (${code})`)));
  return {
    load(fromHeight, raws) {
      if (failed) return Promise.reject(failed);
      // One buffer of our own: raw blocks may be views of Node's shared pool, which must not be transferred.
      const bytes = new Uint8Array(raws.reduce((n, r) => n + r.length, 0));
      const ends: number[] = [];
      let at = 0;
      for (const raw of raws) {
        bytes.set(raw, at);
        at += raw.length;
        ends.push(at);
      }
      const id = nextId++;
      const request: LoadRequest = { id, fromHeight, bytes, ends };
      return new Promise<ChainTip>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage(request, [bytes.buffer]);
      });
    },
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      if (!failed) {
        const closed = new Promise<void>((resolve) => worker.once('message', (m) => m === 'closed' && resolve()));
        worker.postMessage('close');
        await Promise.race([closed, exited]);
      }
      await worker.terminate();
    },
  };
}
