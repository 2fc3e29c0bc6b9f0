/** Attempt counters of one process (no Redis configured): fixed windows in a bounded map. */
import type { AttemptCount, AttemptCounter } from '../core/limits/attempt-counter.js';
import { WindowCounts } from '../core/limits/window-counts.js';

/**
 * Bound: random keys (spoofed emails, many addresses) must not grow the map without limit. 100,000 keys of about
 * 60 bytes each (a rule name and a 22-character hash) stay under 15 MiB; past it the oldest windows go
 * (window-counts.ts). Tested in memory-counters.test.ts.
 */
export const ATTEMPT_KEYS_MAX = 100_000;

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows: WindowCounts;

  constructor(nowMs: () => number = Date.now, maxKeys = ATTEMPT_KEYS_MAX) {
    this.windows = new WindowCounts(maxKeys, nowMs);
  }

  async add(key: string, windowSeconds: number): Promise<AttemptCount> {
    return seconds(this.windows.add(key, windowSeconds * 1000));
  }

  async peek(key: string): Promise<AttemptCount> {
    return seconds(this.windows.peek(key));
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  /** Keys held now (tests check the bound). */
  get size(): number {
    return this.windows.size;
  }
}

function seconds(c: { count: number; resetMs: number }): AttemptCount {
  return { count: c.count, resetIn: Math.ceil(c.resetMs / 1000) };
}
