/**
 * Mempool projections on a worker thread. On the event loop, even in 10-ms slices (time-sliced.ts), a pass over a
 * mainnet-sized mempool took its whole CPU time from the one core the indexer and realtime share: every await of a
 * tx's way from the node's poll to a realtime client could wait behind a slice, and the txs that came late in the
 * mempool-rate bench mostly came behind the projector's passes (docs/benchmarks.md, "Mempool at mainnet rates"). Here
 * the event loop only copies the entries across, ENTRIES_PER_PIECE at a time with a turn between pieces. Should the
 * worker fail to start or die, passes run on the event loop in slices as before.
 */
import type { Worker } from 'node:worker_threads';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { startModuleWorker } from '../../../core/infrastructure/module-worker.js';
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import { projectMempoolBlocksSliced, type ProjectedBlock, type ProjectionOptions } from './mempool-projection.js';
import { encodeEntries, type ProjectionReply, type ProjectionRequest } from './projection-messages.js';

/** Entries copied to the worker per turn of the event loop (about a millisecond of encoding and cloning). */
export const ENTRIES_PER_PIECE = 2_000;

export interface ThreadProjection {
  readonly blocks: ProjectedBlock[];
  /**
   * How long the pass waited for the worker to start (its first pass: ~50 ms compiled, a second or more through tsx):
   * the projector paces its passes by their duration, which a start-up is not part of.
   */
  readonly startupMs: number;
}

type Outcome = { readonly blocks: ProjectedBlock[] } | { readonly error: string } | { readonly lost: Error };

export class ProjectionThread {
  private worker: Worker | null = null;
  /** Set once the worker failed or the thread was closed: passes run on the event loop from then on. */
  private unavailable = false;
  private readonly waiting = new Map<number, (outcome: Outcome) => void>();
  private nextId = 0;
  /** Whether the worker came up (its module loaded and listening); false once it failed. */
  private ready: Promise<boolean> = Promise.resolve(false);
  private setReady: (up: boolean) => void = () => undefined;

  /** `onLost`: told once when the worker fails (passes go on, on the event loop). */
  constructor(private readonly onLost: (error: Error) => void = () => undefined) {}

  async project(entries: readonly MempoolSourceEntry[], options: ProjectionOptions): Promise<ThreadProjection> {
    const onLoop = async (): Promise<ThreadProjection> => ({ blocks: await projectMempoolBlocksSliced(entries, options), startupMs: 0 });
    const worker = this.unavailable ? null : this.start();
    if (!worker) return onLoop();
    const waitStarted = performance.now();
    // Only while a pass waits does the worker keep the process alive.
    worker.ref();
    if (!(await this.ready)) return onLoop();
    const startupMs = performance.now() - waitStarted;
    // Again: another pass's end may have let go of it meanwhile.
    worker.ref();
    const id = this.nextId++;
    const outcome = new Promise<Outcome>((resolve) => this.waiting.set(id, resolve));
    const send = (request: ProjectionRequest): void => worker.postMessage(request);
    for (let at = 0; at < entries.length; at += ENTRIES_PER_PIECE) {
      if (at > 0) await yieldToEventLoop();
      send({ id, kind: 'entries', piece: encodeEntries(entries, at, Math.min(entries.length, at + ENTRIES_PER_PIECE)) });
    }
    send({ id, kind: 'project', options });
    const result = await outcome;
    if ('blocks' in result) return { blocks: result.blocks, startupMs };
    // The projection itself failed: it would on this thread too.
    if ('error' in result) throw new Error(result.error);
    return onLoop();
  }

  /** Ends the worker; a pass under way finishes on the event loop. */
  async close(): Promise<void> {
    this.unavailable = true;
    const worker = this.worker;
    this.worker = null;
    this.setReady(false);
    this.lose(new Error('closed'));
    await worker?.terminate();
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = startModuleWorker(import.meta.url, 'projection-worker');
    } catch (error) {
      this.fail(error as Error);
      return null;
    }
    worker.unref();
    this.ready = new Promise((resolve) => (this.setReady = resolve));
    worker.on('message', (reply: ProjectionReply | 'ready') => {
      if (reply === 'ready') return this.setReady(true);
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      resolve?.('blocks' in reply ? { blocks: reply.blocks } : { error: reply.error });
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`mempool projection worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    this.setReady(false);
    if (this.unavailable) return;
    this.unavailable = true;
    this.worker = null;
    this.onLost(error);
    this.lose(error);
  }

  private lose(error: Error): void {
    for (const resolve of this.waiting.values()) resolve({ lost: error });
    this.waiting.clear();
  }
}
