/**
 * Where wallet addresses are derived (docs/wallets.md, Limits): on worker threads, so the event loop keeps answering
 * while a fresh wallet with a large gap costs seconds of a core. A wallet's derivation is admitted as a whole (a
 * ticket) and runs as a sequence of small jobs (derivation-jobs.ts); each ticket has at most one job queued at a time,
 * so the threads serve the admitted wallets in turn and a small wallet is not stuck behind a large one. At most
 * `threads + queue` wallets are admitted at once, whoever asks: one more is refused at once with ServerBusyError (503)
 * and a Retry-After from the work already admitted. Should a worker fail to start or die, jobs run on the event loop
 * (one job between two turns of it, as derivation did before).
 */
import type { Worker } from 'node:worker_threads';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { ServerBusyError } from '../../core/domain/errors.js';
import { startModuleWorker } from '../../core/infrastructure/module-worker.js';
import { derivationsOf, runDerivationJob, type DerivationJob, type DerivationReply, type DerivationResult } from './derivation-jobs.js';

export interface DerivationPoolOptions {
  /** Worker threads (`[wallets] derive_threads`). */
  readonly threads: number;
  /** Wallet derivations admitted beyond one per thread (`[wallets] derive_queue`). */
  readonly queue: number;
  /** Told once when a worker fails (derivation goes on, on the event loop). */
  readonly onLost?: (error: Error) => void;
}

/** One admitted wallet derivation; release it when done (also on failure). */
export interface DerivationTicket {
  run(job: DerivationJob): Promise<DerivationResult>;
  /** Key derivations (path steps included) the ticket still expects to make: the Retry-After estimate's input. */
  left(work: number): void;
  release(): void;
}

/** Until measured: about what a key derivation costs on a loaded 2-core VM (docs/benchmarks.md, Wallets). */
const INITIAL_MS_PER_DERIVATION = 2;
const MAX_RETRY_AFTER_S = 60;

interface Waiting {
  readonly job: DerivationJob;
  readonly resolve: (result: DerivationResult) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly ready: Promise<boolean>;
  busy: Waiting | null;
}

export class DerivationPool {
  private readonly threads: Thread[] = [];
  private readonly jobs: Waiting[] = [];
  private admitted = 0;
  /** Work the admitted tickets still expect (derivations), for the Retry-After estimate. */
  private readonly expected = new Map<object, number>();
  private msPerDerivation = INITIAL_MS_PER_DERIVATION;
  /** Set once a worker failed or the pool closed: jobs run on the event loop from then on. */
  private onLoop = false;
  private loopRunning = false;
  private nextId = 0;
  private readonly replies = new Map<number, { waiting: Waiting; started: number; work: number }>();

  constructor(private readonly options: DerivationPoolOptions) {}

  /** Wallet derivations admitted now (tests, metrics). */
  get inFlight(): number {
    return this.admitted;
  }

  get capacity(): number {
    return this.options.threads + this.options.queue;
  }

  /** A ticket for one wallet's derivation of about `work` key derivations (path steps included); ServerBusyError when the pool is full. */
  admit(work: number): DerivationTicket {
    if (this.admitted >= this.capacity) {
      const waitS = Math.ceil((this.expectedWork() * this.msPerDerivation) / this.options.threads / 1000);
      throw new ServerBusyError(
        `every wallet derivation slot is taken (${this.options.threads} running, ${this.options.queue} waiting): retry in a few seconds`,
        Math.min(MAX_RETRY_AFTER_S, Math.max(1, waitS)),
      );
    }
    this.admitted++;
    const key = {};
    this.expected.set(key, work);
    let released = false;
    return {
      run: (job) => this.submit(job),
      left: (remaining) => {
        if (!released) this.expected.set(key, remaining);
      },
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
        this.expected.delete(key);
      },
    };
  }

  async close(): Promise<void> {
    this.onLoop = true;
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t.worker.terminate()));
    this.failOver(new Error('closed'));
  }

  private expectedWork(): number {
    let sum = 0;
    for (const work of this.expected.values()) sum += work;
    return sum;
  }

  private submit(job: DerivationJob): Promise<DerivationResult> {
    return new Promise((resolve, reject) => {
      this.jobs.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Hands queued jobs to idle threads (starting threads up to the pool's size), or to the event loop without any. */
  private dispatch(): void {
    if (this.onLoop) {
      void this.runOnLoop();
      return;
    }
    while (this.jobs.length > 0) {
      const thread = this.threads.find((t) => t.busy === null) ?? this.startThread();
      if (!thread) return;
      const waiting = this.jobs.shift()!;
      thread.busy = waiting;
      thread.worker.ref();
      const id = this.nextId++;
      this.replies.set(id, { waiting, started: performance.now(), work: derivationsOf(waiting.job) });
      void thread.ready.then((up) => {
        if (up && this.threads.includes(thread)) thread.worker.postMessage({ id, job: waiting.job });
      });
    }
  }

  private startThread(): Thread | null {
    if (this.threads.length >= this.options.threads) return null;
    let worker: Worker;
    try {
      worker = startModuleWorker(import.meta.url, 'derivation-worker');
    } catch (error) {
      this.fail(error as Error);
      return null;
    }
    let setReady: (up: boolean) => void = () => undefined;
    const thread: Thread = { worker, ready: new Promise((resolve) => (setReady = resolve)), busy: null };
    worker.on('message', (reply: DerivationReply | 'ready') => {
      if (reply === 'ready') return setReady(true);
      const pending = this.replies.get(reply.id);
      this.replies.delete(reply.id);
      thread.busy = null;
      worker.unref();
      if (pending) {
        if ('result' in reply) {
          this.learn(pending.work, performance.now() - pending.started);
          pending.waiting.resolve(reply.result);
        } else pending.waiting.reject(new Error(reply.error));
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`wallet derivation worker exited (${code})`)));
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  /** The cost of a derivation, smoothed, from jobs' times on the threads. */
  private learn(work: number, ms: number): void {
    if (work > 0) this.msPerDerivation = this.msPerDerivation * 0.8 + (ms / work) * 0.2;
  }

  private fail(error: Error): void {
    if (this.onLoop) return;
    this.onLoop = true;
    const threads = this.threads.splice(0);
    for (const t of threads) void t.worker.terminate();
    this.options.onLost?.(error);
    this.failOver(error);
  }

  /** Jobs a thread held or had queued go to the event loop (a job only computes: running it again is harmless). */
  private failOver(error: Error): void {
    const held = [...this.replies.values()].map((r) => r.waiting);
    this.replies.clear();
    this.jobs.unshift(...held);
    if (error.message === 'closed') {
      for (const waiting of this.jobs.splice(0)) waiting.reject(error);
      return;
    }
    void this.runOnLoop();
  }

  private async runOnLoop(): Promise<void> {
    if (this.loopRunning) return;
    this.loopRunning = true;
    try {
      while (this.jobs.length > 0) {
        await yieldToLoop();
        const waiting = this.jobs.shift()!;
        try {
          waiting.resolve(runDerivationJob(waiting.job));
        } catch (error) {
          waiting.reject(error as Error);
        }
      }
    } finally {
      this.loopRunning = false;
    }
  }
}
