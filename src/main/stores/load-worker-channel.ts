/**
 * The two sides of an initial load's worker thread (sqlite-load-worker.ts, postgres-load-worker.ts): numbered requests,
 * one reply each. A failure inside the worker rejects its request with a StoreError (the worker lives on); the worker
 * dying rejects every request waiting and every later one.
 */
import { parentPort } from 'node:worker_threads';
import type { BufferPool } from '../../core/infrastructure/buffer-pool.js';
import { startModuleWorker } from '../../core/infrastructure/module-worker.js';
import { StoreError } from '../../core/domain/errors.js';

/** A batch of raw blocks back to back in `bytes`, block i ending at `ends[i]`. */
export interface PackedRaws {
  readonly fromHeight: number;
  readonly bytes: Uint8Array;
  readonly ends: readonly number[];
}

interface Reply<T> {
  readonly id: number;
  readonly result?: T;
  readonly error?: string;
}

export interface LoadWorkerChannel<Req, Res> {
  request(message: Req, transfer: readonly ArrayBuffer[]): Promise<Res>;
  /** Lets the worker close what it opened, then ends it. */
  close(): Promise<void>;
}

/** `callerUrl`/`entry`: as startModuleWorker's (the worker module beside the caller). */
export function startLoadWorker<Req, Res>(callerUrl: string, entry: string, workerData: unknown): LoadWorkerChannel<Req, Res> {
  const worker = startModuleWorker(callerUrl, entry, { workerData });
  const waiting = new Map<number, { resolve: (result: Res) => void; reject: (err: Error) => void }>();
  let nextId = 0;
  let failed: Error | null = null;
  const failAll = (err: Error): void => {
    failed = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (msg: Reply<Res> | 'closed') => {
    if (msg === 'closed') return;
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error !== undefined) w?.reject(new StoreError(msg.error));
    else w?.resolve(msg.result!);
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new StoreError(`initial load worker exited (${code})`)));
  return {
    request(message, transfer) {
      if (failed) return Promise.reject(failed);
      const id = nextId++;
      return new Promise<Res>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, message }, [...transfer]);
      });
    },
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      if (!failed) {
        // A reply still on its way may come first (a request close() did not wait for): only 'closed' ends the wait.
        const closed = new Promise<void>((resolve) => {
          const onMessage = (m: unknown): void => {
            if (m !== 'closed') return;
            worker.off('message', onMessage);
            resolve();
          };
          worker.on('message', onMessage);
        });
        worker.postMessage('close');
        await Promise.race([closed, exited]);
      }
      await worker.terminate();
    },
  };
}

/**
 * One buffer of our own for the batch: raw blocks may be views of Node's shared pool, which must not be transferred.
 * With a `pool`, from there (a worker that sends the buffer back lets the next batch reuse it: buffer-pool.ts).
 */
export function packRaws(fromHeight: number, raws: readonly Uint8Array[], pool?: BufferPool): PackedRaws {
  const total = raws.reduce((n, r) => n + r.length, 0);
  const bytes = pool ? pool.take(total).subarray(0, total) : new Uint8Array(total);
  const ends: number[] = [];
  let at = 0;
  for (const raw of raws) {
    bytes.set(raw, at);
    at += raw.length;
    ends.push(at);
  }
  return { fromHeight, bytes, ends };
}

/** Each raw block of a packed batch, as a view. */
export function unpackRaws(packed: PackedRaws): Uint8Array[] {
  let start = 0;
  return packed.ends.map((end) => {
    const raw = packed.bytes.subarray(start, end);
    start = end;
    return raw;
  });
}

/**
 * The worker's side: answers each request with `handle`'s result (and the buffers to transfer with it), or its error's
 * message; on 'close', runs `close` and says 'closed'.
 */
export function serveLoadRequests<Req, Res>(
  handle: (message: Req) => Promise<{ result: Res; transfer?: readonly ArrayBuffer[] }>,
  close: () => Promise<void>,
): void {
  const port = parentPort!;
  port.on('message', (msg: { id: number; message: Req } | 'close') => {
    if (msg === 'close') {
      void close().then(() => port.postMessage('closed'));
      return;
    }
    handle(msg.message).then(
      ({ result, transfer }) => port.postMessage({ id: msg.id, result }, [...(transfer ?? [])]),
      (err: unknown) => port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
