/**
 * PriceReader over the PriceStore: what the APIs see. Only BTC, LTC and DOGE have prices (test networks'
 * coins have no value). `latest` serves only prices observed within maxAgeS; `at` is the median across
 * the exchanges quoting at that time of each one's newest value at or before it.
 */
import type { PriceQuote, PriceReader } from '../core/domain/prices.js';
import { isPricedCoin } from '../chains/networks.js';
import type { PriceStore } from '../core/store/price-store.js';
import { medianDecimal } from './decimal-price.js';
import { unixNow } from './sources/source-kit.js';

export interface StoredPriceReaderOptions {
  /** A price not seen for longer than this is stale: `latest` leaves it out. */
  readonly maxAgeS: number;
  readonly now?: () => number;
}

export class StoredPriceReader implements PriceReader {
  private readonly now: () => number;

  constructor(private readonly store: PriceStore, private readonly options: StoredPriceReaderOptions) {
    this.now = options.now ?? unixNow;
  }

  /** Each exchange's current price; `time` is when it was last seen (so clients can judge freshness). */
  async latest(coin: string, base?: string): Promise<PriceQuote[]> {
    if (!isPricedCoin(coin)) return [];
    const oldest = this.now() - this.options.maxAgeS;
    const rows = await this.store.latest(coin, base);
    return rows
      .filter((r) => r.checkedAt >= oldest)
      .map((r) => ({ coin: r.coin, base: r.base, exchange: r.exchange, price: r.price, time: r.checkedAt }));
  }

  /**
   * The price at `time`: per exchange the newest stored change at or before it, then the median across
   * exchanges (mean of the middle two for an even count), exact in decimal; one exchange's glitch cannot move a
   * median of three. Only exchanges still quoting the pair at `time` take part: last seen no more than maxAgeS
   * before it (history rows are changes only, so an unchanged price stays valid until the exchange goes quiet).
   * `exchange` names the contributors; `time` is the newest contributing change.
   */
  async at(coin: string, base: string, time: number): Promise<PriceQuote | null> {
    if (!isPricedCoin(coin)) return null;
    const quoting = new Set((await this.store.latest(coin, base)).filter((l) => l.checkedAt + this.options.maxAgeS >= time).map((l) => l.exchange));
    if (quoting.size === 0) return null;
    const values = (await this.store.at(coin, base, time)).filter((v) => quoting.has(v.exchange));
    const price = medianDecimal(values.map((v) => v.price));
    if (price === null) return null;
    const exchange = values.length === 1 ? values[0]!.exchange : `median of ${values.map((v) => v.exchange).join(', ')}`;
    return { coin, base, exchange, price, time: Math.max(...values.map((v) => v.time)) };
  }
}
