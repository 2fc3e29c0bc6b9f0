import type { Logger } from '../core/infrastructure/logger.js';
import type { AccountStore } from '../core/store/account-store.js';
import type { DayCount, LocalUsageCounter, UsageCounts } from '../core/limits/usage-counter.js';
import { previousUtcDay, utcDay } from '../core/limits/utc-day.js';

/** Flushed counts reach the store at this interval: a kill -9 loses at most the requests of one interval. */
export const DEFAULT_FLUSH_MS = 1_000;

/**
 * Counts in memory and adds the increments to the store every flush interval and on close. The store only
 * ever receives increments (never totals), so several processes sharing one store each add their own share
 * and a flush that failed is simply retried: nothing is counted twice. Each flush returns the store's new
 * total, which also brings in the other processes' flushed counts.
 */
export class StoreUsageCounter implements LocalUsageCounter {
  private readonly days = new Map<string, DayCount>();
  /** Per key and day, requests not yet written (a key's counts are informational: no total is kept here). */
  private readonly keyDays = new Map<string, { keyId: number; day: string; pending: number }>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private warned = false;

  constructor(
    private readonly store: AccountStore,
    private readonly logger: Logger,
    flushMs = DEFAULT_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  async hit(accountId: number, now: number, keyId?: number): Promise<number> {
    const entry = await this.count(accountId, utcDay(now));
    entry.pending++;
    if (keyId !== undefined) this.keyHit(keyId, entry.day);
    return entry.stored + entry.pending;
  }

  hitCached(accountId: number, now: number, keyId?: number): number | null {
    const entry = this.days.get(`${accountId}:${utcDay(now)}`);
    if (!entry?.loaded) return null;
    entry.pending++;
    if (keyId !== undefined) this.keyHit(keyId, entry.day);
    return entry.stored + entry.pending;
  }

  /** Counts one request of the key (or with 0, only its use), written with the next flush. */
  keyHit(keyId: number, day: string, count = 1): void {
    const id = `${keyId}:${day}`;
    const entry = this.keyDays.get(id);
    if (entry) entry.pending += count;
    else this.keyDays.set(id, { keyId, day, pending: count });
  }

  touchKey(keyId: number, now: number): void {
    this.keyHit(keyId, utcDay(now), 0);
  }

  async readKeys(keyIds: readonly number[], now: number): Promise<number[]> {
    const day = utcDay(now);
    const stored = await this.store.getKeyUsage(keyIds, day);
    return keyIds.map((id, i) => stored[i]! + (this.keyDays.get(`${id}:${day}`)?.pending ?? 0));
  }

  /** The account-day entry, loaded from the store (for counters that keep the live total elsewhere). */
  async count(accountId: number, day: string): Promise<DayCount> {
    const key = `${accountId}:${day}`;
    let entry = this.days.get(key);
    if (!entry) {
      entry = { accountId, day, stored: 0, pending: 0, loading: null, loaded: false };
      this.days.set(key, entry);
    }
    if (!entry.loaded) {
      const target = entry;
      target.loading ??= this.store.getUsage(accountId, [day]).then(
        ([stored]) => {
          target.stored = stored ?? 0;
          target.loaded = true;
        },
        (error: unknown) => {
          target.loading = null;
          throw error;
        },
      );
      await target.loading;
    }
    return entry;
  }

  async read(accountId: number, now: number): Promise<UsageCounts> {
    const [today, yesterday] = await Promise.all([utcDay(now), previousUtcDay(now)].map((day) => this.count(accountId, day)));
    return { today: today!.stored + today!.pending, yesterday: yesterday!.stored + yesterday!.pending };
  }

  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = [...this.days.values()].filter((e) => e.pending > 0).map((entry) => ({ entry, taken: entry.pending }));
    if (batch.length > 0) {
      try {
        const totals = await this.store.addUsage(batch.map(({ entry, taken }) => ({ accountId: entry.accountId, day: entry.day, count: taken })));
        // Hits that arrived during the write stay pending for the next flush.
        batch.forEach(({ entry, taken }, i) => {
          entry.pending -= taken;
          entry.stored = totals[i] ?? entry.stored + taken;
        });
        this.warned = false;
      } catch (error) {
        if (!this.warned) this.logger.warn('usage counts could not be written; retrying', { error: (error as Error).message });
        this.warned = true;
        return;
      }
    }
    await this.writeKeys();
    // Days before yesterday are never read again by this process.
    const oldest = previousUtcDay(Date.now() / 1000);
    for (const [key, entry] of this.days) if (entry.day < oldest && entry.pending === 0) this.days.delete(key);
  }

  private async writeKeys(): Promise<void> {
    const batch = [...this.keyDays.values()].map((entry) => ({ entry, taken: entry.pending }));
    if (batch.length === 0) return;
    try {
      await this.store.addKeyUsage(batch.map(({ entry, taken }) => ({ keyId: entry.keyId, day: entry.day, count: taken })), Math.floor(Date.now() / 1000));
    } catch (error) {
      if (!this.warned) this.logger.warn('key usage counts could not be written; retrying', { error: (error as Error).message });
      this.warned = true;
      return;
    }
    for (const { entry, taken } of batch) {
      entry.pending -= taken;
      // A use recorded during the write (count 0) is lost to this flush; the next request of the key records it again.
      if (entry.pending === 0) this.keyDays.delete(`${entry.keyId}:${entry.day}`);
    }
  }
}
