/** Requests counted in the current fixed window of one client. */
export interface RateWindow {
  readonly count: number;
  /** Milliseconds until the window ends. */
  readonly resetMs: number;
}

/** Counts hits per key in fixed windows; local to the process or shared through Redis. */
export interface RateCounter {
  /** Adds `amount` (default 1: one request; a budget of work counts its units, e.g. addresses derived or bytes sent). */
  hit(key: string, windowMs: number, amount?: number): Promise<RateWindow>;
  close(): Promise<void>;
}

/** Makes a counter whose keys live under `keyPrefix` (separate budgets: v2 API, explorer pages). */
export type RateCounterFactory = (keyPrefix: string) => RateCounter;
