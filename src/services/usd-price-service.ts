import type { NetworkParams } from '../chains/network-params.js';
import type { PriceQuote, PriceReader } from '../core/prices.js';

/** v3 price objects are in US dollars. */
export const V3_CURRENCY = 'USD';

/**
 * USD prices of a network's coin for v3 price objects. Test networks' coins have no value, and before the
 * market data knows a price there is none: both give null (presented as value "0.00000000", updated_at 0).
 */
export class UsdPriceService {
  constructor(private readonly prices: PriceReader) {}

  /** The price at or before `time` (UNIX seconds). */
  async at(params: NetworkParams, time: number): Promise<PriceQuote | null> {
    if (params.chain !== 'main') return null;
    return this.prices.at(params.coin, V3_CURRENCY, time);
  }

  /** Prices at several times, each distinct time asked once. */
  async atTimes(params: NetworkParams, times: readonly number[]): Promise<Map<number, PriceQuote | null>> {
    const distinct = [...new Set(times)];
    const quotes = await Promise.all(distinct.map((t) => this.at(params, t)));
    return new Map(distinct.map((t, i) => [t, quotes[i] ?? null]));
  }

  /** The newest known price across exchanges. */
  async latest(params: NetworkParams): Promise<PriceQuote | null> {
    if (params.chain !== 'main') return null;
    const quotes = await this.prices.latest(params.coin, V3_CURRENCY);
    return quotes.reduce<PriceQuote | null>((best, q) => (best === null || q.time > best.time ? q : best), null);
  }
}
