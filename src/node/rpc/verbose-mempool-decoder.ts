/**
 * Decodes the node's verbose mempool (`getrawmempool true`) on a worker thread. At 20,000-30,000 txs the reply is over
 * 10 MB of JSON with exact decimals: decoded on the event loop it held it for 0.4-1.8 s every FULL_REFRESH_MS (the
 * projector's whole refresh), and every tx the node announced meanwhile reached realtime clients that much later
 * (docs/benchmarks.md, "Mempool at mainnet rates"). The worker sends the entries back in pieces of ENTRIES_PER_PIECE,
 * each received as its own task: the event loop turns between them.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../core/infrastructure/module-worker.js';
import type { MempoolEntry } from './node-replies.js';
import type { DecodeReply, DecodeRequest } from './verbose-mempool-worker.js';

/** ~1 ms to receive on the event loop. */
export const ENTRIES_PER_PIECE = 1_000;

interface Waiting {
  readonly entries: Map<string, MempoolEntry>;
  readonly resolve: (entries: Map<string, MempoolEntry> | null) => void;
  readonly reject: (error: Error) => void;
}

export class VerboseMempoolDecoder {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  /**
   * The entries of a reply's bytes, by txid in the reply's order; null when the reply is not a verbose mempool (an
   * error, something else): the caller decodes it as usual.
   */
  decode(bytes: Uint8Array): Promise<Map<string, MempoolEntry> | null> {
    const worker = this.start();
    const id = this.nextId++;
    // A copy (one memcpy, ~2 ms for 10 MB) transferred to the worker: the caller's bytes stay readable (it decodes
    // them itself when the worker does not take them), and a small reply can be a view of Node's shared pool.
    const own = new Uint8Array(bytes);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { entries: new Map(), resolve, reject });
      worker.postMessage({ id, bytes: own, piece: ENTRIES_PER_PIECE } satisfies DecodeRequest, [own.buffer as ArrayBuffer]);
      // Only while a decode waits does the worker keep the process alive.
      worker.ref();
    });
  }

  /** Ends the worker (a decode under way is failed). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startModuleWorker(import.meta.url, 'verbose-mempool-worker');
    worker.unref();
    worker.on('message', (reply: DecodeReply) => this.received(reply));
    const failAll = (error: Error): void => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`verbose mempool decoder exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private received(reply: DecodeReply): void {
    const w = this.waiting.get(reply.id);
    if (!w) return;
    if ('fallback' in reply) {
      this.finish(reply.id);
      w.resolve(null);
      return;
    }
    for (const entry of reply.entries) w.entries.set(entry.txid, entry);
    if (reply.done) {
      this.finish(reply.id);
      w.resolve(w.entries);
    }
  }

  private finish(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
  }
}
