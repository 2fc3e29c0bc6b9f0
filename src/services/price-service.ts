import type { PriceQuote, PriceReader } from '../core/prices.js';

/** The spec's default coin when get_price / get_info omit it. */
export const DEFAULT_COIN = 'DOGE';
const MAIN_COINS = new Set(['BTC', 'LTC', 'DOGE']);
/** Currency acronyms: letters and digits only, so user text never reaches the price store unchecked. */
const ACRONYM = /^[A-Za-z0-9]{1,12}$/;

export interface CoinPrices {
  /** The coin as asked (upper case). */
  readonly coin: string;
  readonly quotes: readonly PriceQuote[];
}

/** Latest exchange prices. Test-network coins have no value and unknown coins no market: both give an empty list. */
export class PriceService {
  constructor(private readonly prices: PriceReader) {}

  async latest(coin: string | undefined, base: string | undefined): Promise<CoinPrices> {
    const name = (coin ?? DEFAULT_COIN).toUpperCase();
    if (!ACRONYM.test(name) || !MAIN_COINS.has(name)) return { coin: ACRONYM.test(name) ? name : DEFAULT_COIN, quotes: [] };
    if (base !== undefined && !ACRONYM.test(base)) return { coin: name, quotes: [] };
    const quotes = await this.prices.latest(name, base?.toUpperCase());
    return { coin: name, quotes };
  }

  /** The most recent quote of the coin in the base, across exchanges. */
  async newest(coin: string, base: string): Promise<PriceQuote | null> {
    if (!MAIN_COINS.has(coin)) return null;
    const quotes = await this.prices.latest(coin, base);
    return quotes.reduce<PriceQuote | null>((best, q) => (best === null || q.time > best.time ? q : best), null);
  }
}
