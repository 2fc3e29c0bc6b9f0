/** One exchange's price of a coin in a base currency. Prices are decimal strings: never floats. */
export interface PriceQuote {
  /** Coin acronym, e.g. BTC. */
  readonly coin: string;
  /** Denominating currency acronym, e.g. USD, BTC. */
  readonly base: string;
  /** Exchange name as shown to users, e.g. "Kraken". */
  readonly exchange: string;
  readonly price: string;
  /** UNIX seconds when the exchange reported (or we observed) this price. */
  readonly time: number;
}

/**
 * Read side of market data, used by the APIs. Test networks' coins have no value: callers pass
 * main-network coins only. With no price sources configured every answer is empty/null.
 */
export interface PriceReader {
  /** Latest non-stale price per exchange for the coin, in one base or (base undefined) every base. */
  latest(coin: string, base?: string): Promise<PriceQuote[]>;
  /** The price at or before `time` (UNIX seconds), one value across exchanges; null if none known. */
  at(coin: string, base: string, time: number): Promise<PriceQuote | null>;
}

export const noPrices: PriceReader = {
  latest: () => Promise.resolve([]),
  at: () => Promise.resolve(null),
};
