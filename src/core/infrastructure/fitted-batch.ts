/**
 * A batch size fitted to how long a batch may hold the event loop. SQLite's writes run synchronously: a batch of a
 * fixed size that takes 20 ms on a quiet machine takes several times that on a loaded one (in the real-node mempool
 * bench at load 10, writes and event-log appends of 250 held the loop 100-700 ms while a mempool was ingested), and
 * every request waits behind it. After each batch the next is sized from this one's cost per item, halfway from the
 * current size to the fitting one (one slow batch, a garbage collection, does not halve the next), within
 * [least, most].
 *
 * The cost is the event loop's busy time during the batch (`busyMs`), not the time it took: a PostgreSQL write waits
 * for its server with the loop idle, and must not be made smaller for that.
 */
export class FittedBatch {
  private size: number;

  constructor(
    readonly most: number,
    readonly least: number,
    private readonly targetMs: number,
  ) {
    this.size = most;
  }

  /** Items the next batch takes at most. */
  get next(): number {
    return this.size;
  }

  /** A batch of `items` kept the event loop busy `ms`. */
  took(items: number, ms: number): void {
    if (items <= 0) return;
    const fitting = ms <= 0 ? this.most : Math.floor((this.targetMs * items) / ms);
    this.size = Math.max(this.least, Math.min(this.most, Math.round((this.size + fitting) / 2)));
  }
}

/**
 * A clock of the event loop's busy time for FittedBatch (ms): the time so far less what the loop spent idle, waiting
 * for I/O. Idle time only grows while the loop waits, so a synchronous hold counts whole however early it runs; the
 * utilisation's `active` is 0 until the loop has started (Node 24 runs a test file's first tests before that).
 */
export function busyMs(): number {
  return performance.now() - performance.eventLoopUtilization().idle;
}
