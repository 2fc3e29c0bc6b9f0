/** Gives a slot back; calling it more than once is harmless. */
export type Release = () => void;

/**
 * Slots of requests in flight per key (an account, a client IP): `acquire` takes one unless `limit` are taken,
 * and the caller releases it when the response is done. Local to the process or shared through Redis.
 */
export interface ConcurrencyLimiter {
  /** A release function, or null when `limit` requests of `key` are already in flight. */
  acquire(key: string, limit: number): Promise<Release | null>;
  close(): Promise<void>;
}

/** In-process slots: exact for one process; N processes without Redis allow N × limit. */
export class MemoryConcurrencyLimiter implements ConcurrencyLimiter {
  private readonly inFlight = new Map<string, number>();

  acquire(key: string, limit: number): Promise<Release | null> {
    return Promise.resolve(this.tryAcquire(key, limit));
  }

  tryAcquire(key: string, limit: number): Release | null {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= limit) return null;
    this.inFlight.set(key, n + 1);
    return once(() => {
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    });
  }

  /** Requests of `key` in flight now (tests). */
  count(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export function once(fn: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
