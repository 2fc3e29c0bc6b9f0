/**
 * Coinbase Exchange: GET /products/{BTC-USD}/ticker → {"ask","bid","volume","trade_id","price","size","time"}.
 * One request per pair; errors are {"message":"NotFound"} (HTTP 404) and {"message":"Public rate limit exceeded"}
 * (HTTP 429). `price` is the last trade.
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, fetchEachPair, isRecord, quoteOf, unixNow, type SourceOptions } from './source-kit.js';

export const COINBASE_BASE_URL = 'https://api.exchange.coinbase.com';

const pair = (coin: string, base: string): PricePair => ({ coin, base });

export const COINBASE_PAIRS: readonly PricePair[] = [
  pair('BTC', 'USD'), pair('BTC', 'EUR'), pair('BTC', 'GBP'),
  pair('LTC', 'USD'), pair('LTC', 'EUR'), pair('LTC', 'GBP'), pair('LTC', 'BTC'),
  pair('DOGE', 'USD'), pair('DOGE', 'EUR'), pair('DOGE', 'GBP'),
];

export function coinbasePriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'coinbase';
  const base = baseUrlOf(options, COINBASE_BASE_URL);
  const now = options.now ?? unixNow;
  return {
    id: 'coinbase',
    name,
    pairs: COINBASE_PAIRS,
    fetch: (signal) => fetchEachPair(name, COINBASE_PAIRS, async (p) => {
      const body = await getJson(`${base}/products/${p.coin}-${p.base}/ticker`, signal);
      if (!isRecord(body)) throw new ExchangeError(`Coinbase ${p.coin}-${p.base}: expected a ticker object`);
      if (!('price' in body) && 'message' in body) throw new ExchangeError(`Coinbase ${p.coin}-${p.base}: ${String(body.message)}`);
      return quoteOf(name, p, body.price, now());
    }),
  };
}
