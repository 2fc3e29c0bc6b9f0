/**
 * Worker processes forked as a Node cluster (they share the listening ports; the cluster hands each new connection to
 * one worker in turn): what the HTTP workers (http-cluster.ts) and the Electrum workers (electrum/electrum-cluster.ts)
 * have in common. Forks them, tells each one's messages to its owner, replaces one that dies after a second, and
 * stops them: told to stop, each answers what it has in flight and exits, and is killed if it is still there after
 * `stopKillMs`. A worker ignores the signals a service manager or a terminal sends the whole process group: the
 * serving process decides when it stops, and a worker ends by itself only when its IPC channel closes (the serving
 * process is gone).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../../../core/index.js';

/** A worker that dies is replaced after this long (a crash loop does not spin). */
const RESPAWN_MS = 1000;

export interface WorkerPoolOptions<Ready, From> {
  /** The workers' name in log lines ("an HTTP worker process ended"). */
  readonly label: string;
  /** The worker's module, named without its extension, beside `base` (the caller's import.meta.url). */
  readonly module: string;
  readonly base: string;
  /** The environment each worker gets on top of this process's (its configuration). */
  readonly env: () => NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** A worker still running this long after it was told to stop is killed. */
  readonly stopKillMs: number;
  /** What tells a worker to stop. */
  readonly stopMessage: unknown;
  /**
   * Each new worker (the first ones and their replacements) before its first message: gives the handler of its
   * messages, which calls `ready` once the worker serves.
   */
  readonly attach: (worker: Worker, ready: (value: Ready) => void) => (message: From) => void;
  /** A worker is gone (exited or killed). */
  readonly detach?: (worker: Worker) => void;
}

export class WorkerPool<Ready, From = unknown> {
  readonly workers = new Set<Worker>();
  private stopping = false;

  constructor(private readonly options: WorkerPoolOptions<Ready, From>) {}

  /** `count` workers, once each serves (what each one's ready call gave); rejects when one exits first. */
  start(count: number): Promise<Ready[]> {
    return Promise.all(Array.from({ length: count }, () => this.fork()));
  }

  /** To every worker still connected (but the one `except` names). */
  send(message: unknown, except?: number): void {
    for (const worker of this.workers) if (worker.id !== except && worker.isConnected()) worker.send(message as object);
  }

  /** Process ids of the workers now. */
  get pids(): number[] {
    return [...this.workers].flatMap((w) => (w.process.pid === undefined ? [] : [w.process.pid]));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.workers].map((worker) => new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve();
      const timer = setTimeout(() => worker.process.kill('SIGKILL'), this.options.stopKillMs);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      // A worker whose channel closed is stopping by itself already.
      if (worker.isConnected()) worker.send(this.options.stopMessage as object);
    })));
  }

  private fork(): Promise<Ready> {
    const { label, logger } = this.options;
    const worker = this.forkProcess();
    this.workers.add(worker);
    return new Promise((resolve, reject) => {
      let started = false;
      const onMessage = this.options.attach(worker, (value) => {
        started = true;
        resolve(value);
      });
      worker.on('message', onMessage);
      worker.once('exit', (code, signal) => {
        this.workers.delete(worker);
        this.options.detach?.(worker);
        if (!started) return reject(new Error(`an ${label} worker process exited while starting (${signal ?? code})`));
        if (this.stopping) return;
        logger.error(`an ${label} worker process ended; starting another`, { code, signal });
        setTimeout(() => {
          if (!this.stopping) this.fork().catch((error: Error) => logger.error(`an ${label} worker process did not start`, { error: error.message }));
        }, RESPAWN_MS).unref();
      });
    });
  }

  /**
   * cluster's settings are process-wide, and each pool runs its own module: they are set for this fork only and put
   * back after it.
   */
  private forkProcess(): Worker {
    const previous = { ...cluster.settings };
    // Compiled: the module beside the caller's; from the sources (tests, a checkout): the TypeScript one through tsx.
    const ts = this.options.base.endsWith('.ts');
    cluster.setupPrimary({
      exec: new URL(`./${this.options.module}.${ts ? 'ts' : 'js'}`, this.options.base).pathname,
      execArgv: ts ? ['--import', 'tsx', ...process.execArgv] : process.execArgv,
      // Structured clone: bytes (scripts) and bigints travel as they are.
      serialization: 'advanced',
    });
    try {
      return cluster.fork(this.options.env());
    } finally {
      cluster.setupPrimary(previous);
    }
  }
}
