/**
 * Bitstamp: GET /api/v2/ticker/{btcusd}/ → {"timestamp","open","high","low","last","volume","vwap","bid","ask",…}
 * (all strings). One request per pair; errors are HTTP 404 for an unknown pair, {"status":"error","reason":…}
 * bodies and HTTP 429. `last` is the last trade price.
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, fetchEachPair, isRecord, quoteOf, unixNow, type SourceOptions } from './source-kit.js';

export const BITSTAMP_BASE_URL = 'https://www.bitstamp.net';

const pair = (coin: string, base: string): PricePair => ({ coin, base });

export const BITSTAMP_PAIRS: readonly PricePair[] = [
  pair('BTC', 'USD'), pair('BTC', 'EUR'), pair('BTC', 'GBP'),
  pair('LTC', 'USD'), pair('LTC', 'EUR'), pair('LTC', 'GBP'), pair('LTC', 'BTC'),
];

export function bitstampPriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'bitstamp';
  const base = baseUrlOf(options, BITSTAMP_BASE_URL);
  const now = options.now ?? unixNow;
  return {
    id: 'bitstamp',
    name,
    pairs: BITSTAMP_PAIRS,
    fetch: (signal) => fetchEachPair(name, BITSTAMP_PAIRS, async (p) => {
      const market = `${p.coin}${p.base}`.toLowerCase();
      const body = await getJson(`${base}/api/v2/ticker/${market}/`, signal);
      if (!isRecord(body)) throw new ExchangeError(`Bitstamp ${market}: expected a ticker object`);
      if (body.status === 'error') throw new ExchangeError(`Bitstamp ${market}: ${JSON.stringify(body.reason ?? body.errors ?? 'error')}`);
      return quoteOf(name, p, body.last, now());
    }),
  };
}
