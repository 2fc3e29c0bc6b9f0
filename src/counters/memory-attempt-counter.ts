/** Attempt counters of one process (no Redis configured): fixed windows in a bounded map. */
import type { AttemptCount, AttemptCounter } from '../core/limits/attempt-counter.js';

/** Random keys (spoofed emails, many IPs) must not grow the map without bound; past this, ended windows go first, then the oldest. */
const MAX_KEYS = 100_000;

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; until: number }>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  async add(key: string, windowSeconds: number): Promise<AttemptCount> {
    const now = this.nowMs();
    let entry = this.windows.get(key);
    if (!entry || entry.until <= now) {
      if (this.windows.size >= MAX_KEYS) this.evict(now);
      entry = { count: 0, until: now + windowSeconds * 1000 };
      this.windows.delete(key);
      this.windows.set(key, entry);
    }
    entry.count++;
    return { count: entry.count, resetIn: Math.ceil((entry.until - now) / 1000) };
  }

  async peek(key: string): Promise<AttemptCount> {
    const now = this.nowMs();
    const entry = this.windows.get(key);
    return entry && entry.until > now ? { count: entry.count, resetIn: Math.ceil((entry.until - now) / 1000) } : { count: 0, resetIn: 0 };
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private evict(now: number): void {
    for (const [key, entry] of this.windows) if (entry.until <= now) this.windows.delete(key);
    // Insertion order is window start order: the oldest windows are first.
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS * 0.9) break;
      this.windows.delete(key);
    }
  }
}
