import type { RateCounter, RateWindow } from '../core/limits/rate-counter.js';
import { WindowCounts } from '../core/limits/window-counts.js';

/** Expired windows are dropped in sweeps so idle clients cost nothing. */
const SWEEP_MS = 10_000;
/**
 * Bound: one key per client address (v2 API, explorer pages). 100,000 addresses inside one sweep interval is a
 * flood from a large IPv6 range; past it the oldest windows go (window-counts.ts), so the map stays under ~15 MiB. Tested in memory-counters.test.ts.
 */
export const RATE_KEYS_MAX = 100_000;

export class MemoryRateCounter implements RateCounter {
  private readonly windows: WindowCounts;
  private readonly sweeper: NodeJS.Timeout;

  constructor(now: () => number = Date.now, maxKeys = RATE_KEYS_MAX) {
    this.windows = new WindowCounts(maxKeys, now);
    this.sweeper = setInterval(() => this.windows.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number, amount = 1): Promise<RateWindow> {
    const window = this.windows.add(key, windowMs, amount);
    return { count: window.count, resetMs: window.resetMs };
  }

  /** Keys held now (tests check the bound). */
  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
