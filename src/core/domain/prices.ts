/** One exchange's price of a coin in a base currency. Prices are decimal strings: never floats. */
export interface PriceQuote {
  /** Coin acronym, e.g. BTC. */
  readonly coin: string;
  /** Denominating currency acronym, e.g. USD, BTC. */
  readonly base: string;
  /** Exchange name as clients compare it: the lower-case source id, e.g. "kraken" (docs/market.md). */
  readonly exchange: string;
  readonly price: string;
  /** UNIX seconds when the exchange reported (or we observed) this price. */
  readonly time: number;
}

/**
 * Read side of market data, used by the APIs. Answers only for the coins that have a market value (chains' PRICED_COINS): test
 * networks' coins have no value, so any other coin gets an empty list / null. With no price sources
 * configured (and nothing else filling the store) every answer is empty/null.
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


/** Configuration ids of the supported exchanges (lower case, as written in `[market] sources`). */
export const PRICE_SOURCE_IDS = ['binance', 'bitfinex', 'bitstamp', 'coinbase', 'gemini', 'kraken', 'okx'] as const;
export type PriceSourceId = (typeof PRICE_SOURCE_IDS)[number];

/** `[market]`: exchange price polling (docs/market.md), as config reads it and the market layer takes it (default: all seven). No sources: nothing polls. */
export interface MarketSettings {
  readonly sources: readonly PriceSourceId[];
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxAgeS: number;
  /** Per source, a replacement for the exchange's API origin (`<source>_url`). */
  readonly baseUrls: Readonly<Partial<Record<PriceSourceId, string>>>;
}

export function isPriceSourceId(value: string): value is PriceSourceId {
  return (PRICE_SOURCE_IDS as readonly string[]).includes(value);
}

/** A market one source quotes: `coin` priced in `base` (both upper-case acronyms). */
export interface PricePair {
  readonly coin: string;
  readonly base: string;
}

/**
 * One exchange's public ticker API. `fetch` asks for every pair the source covers and resolves with the
 * quotes it got (a pair the exchange did not answer is simply missing); it rejects when nothing usable came
 * back or the exchange rate-limits us. Prices are normalised decimal strings; `time` is when we observed them.
 */
export interface PriceSource {
  readonly id: PriceSourceId;
  /** Exchange name as clients see and compare it (PriceQuote.exchange): the lower-case id, as SoChain spelled exchanges. */
  readonly name: string;
  readonly pairs: readonly PricePair[];
  fetch(signal: AbortSignal): Promise<PriceQuote[]>;
}

/**
 * An exchange's decimal price spelled with exactly 8 decimals (truncated, never rounded up), as every API
 * shows prices (v2 get_price/get_info, v3 price objects, realtime price_update); other text as is.
 */
export function formatPrice(text: string): string {
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return text;
  return `${match[1]}.${(match[2] ?? '').padEnd(8, '0').slice(0, 8)}`;
}
