/**
 * Fixed-window counts per key, in this process, holding at most `maxKeys` keys. Keys come from clients (addresses,
 * emails, API keys' owners), so the map must not grow with what a client sends: once full, ended windows go
 * first, then the oldest (a Map keeps insertion order, and a key's window is re-inserted when it restarts, so the
 * first keys are the oldest windows) until a tenth of the room is free again. A dropped key starts from zero,
 * which only ever favours its client: the bound costs precision for floods of distinct keys, never memory.
 * Used by the in-process attempt counters, the v2/explorer rate counters and the v3 key-failure limit.
 */
export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window ends (0 when the key has no open window). */
  readonly resetMs: number;
}

interface Window {
  count: number;
  until: number;
}

export class WindowCounts {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly maxKeys: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Adds `amount` (default one) to the key's window, starting a window of `windowMs` when none is open. */
  add(key: string, windowMs: number, amount = 1): WindowCount {
    const now = this.nowMs();
    let entry = this.windows.get(key);
    if (!entry || entry.until <= now) {
      if (entry) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.evict(now);
      entry = { count: 0, until: now + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += amount;
    return { count: entry.count, resetMs: entry.until - now };
  }

  peek(key: string): WindowCount {
    const now = this.nowMs();
    const entry = this.windows.get(key);
    return entry && entry.until > now ? { count: entry.count, resetMs: entry.until - now } : { count: 0, resetMs: 0 };
  }

  delete(key: string): void {
    this.windows.delete(key);
  }

  clear(): void {
    this.windows.clear();
  }

  /** Keys held now (tests check the bound). */
  get size(): number {
    return this.windows.size;
  }

  /** Drops every ended window (a timer calls it so idle clients cost nothing between floods). */
  sweep(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.windows) if (entry.until <= now) this.windows.delete(key);
  }

  private evict(now: number): void {
    for (const [key, entry] of this.windows) if (entry.until <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys * 0.9) break;
      this.windows.delete(key);
    }
  }
}
