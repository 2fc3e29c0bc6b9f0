export interface UsageCounts {
  readonly today: number;
  readonly yesterday: number;
}

/** Requests per account and UTC day. */
export interface UsageCounter {
  /** Counts one request now (also for the key, when given); resolves the account's count for today including it. */
  hit(accountId: number, now: number, keyId?: number): Promise<number>;
  /** Synchronous fast path of hit: counts and returns the count when the day is already loaded, else null (nothing counted). */
  hitCached(accountId: number, now: number, keyId?: number): number | null;
  read(accountId: number, now: number): Promise<UsageCounts>;
  /** Each key's requests today (the store's count plus this process's unflushed ones), in the same order. */
  readKeys(keyIds: readonly number[], now: number): Promise<number[]>;
  /** Records a use of the key that is not counted (account_info): only its last use moves. */
  touchKey(keyId: number, now: number): void;
  /** Writes pending increments to the store (also done every flush interval and on close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** One account-day: the store's count as last seen plus this process's increments not yet written. */
export interface DayCount {
  readonly accountId: number;
  readonly day: string;
  stored: number;
  pending: number;
  /** Set once the store's count was read (the first hit of the day in this process waits for it). */
  loading: Promise<void> | null;
  loaded: boolean;
}

/** The process's own count, backed by the store: what a shared (Redis) counter falls back on and flushes through. */
export interface LocalUsageCounter extends UsageCounter {
  /** The account-day's entry, loading the store's count on first use. */
  count(accountId: number, day: string): Promise<DayCount>;
  /** Counts requests of a key on a day (the account's count is the caller's). */
  keyHit(keyId: number, day: string, count?: number): void;
}

