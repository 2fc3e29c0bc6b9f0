import type { NetworkParams } from '../../chains/network-params.js';
import { DEFAULT_COIN, isPricedCoin } from '../../chains/networks.js';
import type { PriceQuote, PriceReader } from '../../core/domain/prices.js';

/** v3 price objects are in US dollars. */
export const V3_CURRENCY = 'USD';

/** Currency acronyms: letters and digits only, so user text never reaches the price store unchecked. */
const ACRONYM = /^[A-Za-z0-9]{1,12}$/;

export interface CoinPrices {
  /** The coin as asked (upper case). */
  readonly coin: string;
  readonly quotes: readonly PriceQuote[];
}

/**
 * Exchange prices for both APIs: v2's latest quotes per exchange, the newest quote across exchanges (get_info and v3),
 * and v3's USD price at a time. Test-network coins have no value and unknown coins no market: both give an empty
 * list or null (v3 presents null as value "0.00000000", updated_at 0).
 */
export class PriceService {
  constructor(private readonly prices: PriceReader) {}

  async latest(coin: string | undefined, base: string | undefined): Promise<CoinPrices> {
    const name = (coin ?? DEFAULT_COIN).toUpperCase();
    if (!ACRONYM.test(name) || !isPricedCoin(name)) return { coin: ACRONYM.test(name) ? name : DEFAULT_COIN, quotes: [] };
    if (base !== undefined && !ACRONYM.test(base)) return { coin: name, quotes: [] };
    const quotes = await this.prices.latest(name, base?.toUpperCase());
    return { coin: name, quotes };
  }

  /** The most recent quote of the coin in the base, across exchanges. */
  async newest(coin: string, base: string): Promise<PriceQuote | null> {
    if (!isPricedCoin(coin)) return null;
    const quotes = await this.prices.latest(coin, base);
    return quotes.reduce<PriceQuote | null>((best, q) => (best === null || q.time > best.time ? q : best), null);
  }

  /** The network's coin in USD now (v3); null on test networks. */
  async usdNow(params: NetworkParams): Promise<PriceQuote | null> {
    return params.chain === 'main' ? this.newest(params.coin, V3_CURRENCY) : null;
  }

  /** The network's coin in USD at or before `time` (UNIX seconds); null on test networks. */
  async usdAt(params: NetworkParams, time: number): Promise<PriceQuote | null> {
    if (params.chain !== 'main') return null;
    return this.prices.at(params.coin, V3_CURRENCY, time);
  }

  /** USD prices at several times, each distinct time asked once. */
  async usdAtTimes(params: NetworkParams, times: readonly number[]): Promise<Map<number, PriceQuote | null>> {
    const distinct = [...new Set(times)];
    const quotes = await Promise.all(distinct.map((t) => this.usdAt(params, t)));
    return new Map(distinct.map((t, i) => [t, quotes[i] ?? null]));
  }
}
