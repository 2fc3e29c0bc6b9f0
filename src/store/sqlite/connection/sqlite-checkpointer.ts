/**
 * WAL checkpoints off the event loop. By default SQLite checkpoints inside the commit that takes the write-ahead log
 * past 1,000 pages: that commit copies the log into the database file and syncs both, on whichever thread committed.
 * For the service that is the event loop, and a busy mempool (its txs, their raw bytes, the event log) fills 1,000
 * pages every few commits: in a micro-measure of mempool event logging, half of each append's time was checkpoints
 * (docs/benchmarks.md, "The tip at mainnet size"). Here the connection that writes never checkpoints
 * (`wal_autocheckpoint = 0`) and a worker thread with its own connection runs PASSIVE checkpoints (they never wait for
 * readers or the writer, and never make them wait) every `everyMs`. Should the worker stop, the writing connection
 * checkpoints for itself again, as SQLite does by default.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../../core/infrastructure/module-worker.js';
import type BetterSqlite3 from 'better-sqlite3';

/** SQLite's own default threshold, restored on the writing connection if the worker is gone. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * After a checkpoint that emptied the log, the next writer starts it again from its beginning; the file keeps its size
 * unless limited: a burst's log (hundreds of MB) is cut back to this when it restarts.
 */
const WAL_SIZE_LIMIT_BYTES = 64 * 2 ** 20;

export interface CheckpointerOptions {
  readonly everyMs?: number;
  /** Told when the worker stopped on its own (the writing connection checkpoints for itself from then on). */
  readonly onFailure?: (error: Error) => void;
}

export interface CheckpointWorkerData {
  readonly path: string;
  readonly everyMs: number;
}

export class WalCheckpointer {
  private worker: Worker | null;
  private stopping = false;

  constructor(
    private readonly db: BetterSqlite3.Database,
    path: string,
    options: CheckpointerOptions = {},
  ) {
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('wal_autocheckpoint = 0');
    const workerData: CheckpointWorkerData = { path, everyMs: options.everyMs ?? 200 };
    const worker = startModuleWorker(import.meta.url, 'sqlite-checkpoint-worker', { workerData });
    this.worker = worker;
    // A background helper: it must not keep the process alive.
    worker.unref();
    const failed = (error: Error): void => {
      if (this.stopping || this.worker !== worker) return;
      this.worker = null;
      db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      options.onFailure?.(error);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the checkpoint worker exited (${code})`)));
  }

  /** True while the worker checkpoints (false once it failed and the writing connection does it again). */
  get running(): boolean {
    return this.worker !== null;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
