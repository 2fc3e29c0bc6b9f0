import type { PriceQuote } from '../domain/prices.js';

/** Exchange price history as stored (market data). */

/** The newest stored price of one (coin, base, exchange), with the last time it was seen unchanged. */
export interface LatestPrice extends PriceQuote {
  /** UNIX seconds of the last observation of this price (>= time, the time it changed to it). Staleness is judged on this. */
  readonly checkedAt: number;
}

/**
 * Exchange prices (decimal strings, stored as given: callers normalise them) keyed by (coin, base, exchange).
 * Only changes make history rows; an unchanged observation just moves `checkedAt` forward.
 */
export interface PriceStore {
  /**
   * Records an observation. Resolves true (and adds a history row) when the price differs from the stored
   * latest one for (coin, base, exchange); false when it is unchanged (checkedAt moves to quote.time) or older
   * than the stored latest one (ignored). Two changes within one second keep the later one.
   */
  record(quote: PriceQuote): Promise<boolean>;
  /** The latest price per exchange for the coin in one base, or in every base when base is undefined. Sorted by base, exchange. */
  latest(coin: string, base?: string): Promise<LatestPrice[]>;
  /** Per exchange, the newest price at or before `time` (UNIX seconds). Sorted by exchange. */
  at(coin: string, base: string, time: number): Promise<PriceQuote[]>;
}
