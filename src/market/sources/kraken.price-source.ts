/**
 * Kraken: GET /0/public/Ticker?pair=XBTUSD,… → {"error":[],"result":{"XXBTZUSD":{"c":["65000.10000","0.001"],…}}}.
 * One request for every pair; results are keyed by Kraken's canonical pair names (XXBTZUSD, XDGUSD, XXDGXXBT),
 * which differ from the names asked for, so each pair lists both. `c[0]` is the last trade price. Errors arrive
 * with HTTP 200 in `error` ("EQuery:Unknown asset pair", "EAPI:Rate limit exceeded").
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, isRecord, quoteOf, unixNow, usable, type SourceOptions } from './source-kit.js';

export const KRAKEN_BASE_URL = 'https://api.kraken.com';

interface KrakenPair extends PricePair {
  /** The name we ask with (altname). */
  readonly query: string;
  /** The canonical key Kraken answers under. */
  readonly key: string;
}

export const KRAKEN_PAIRS: readonly KrakenPair[] = [
  { coin: 'BTC', base: 'USD', query: 'XBTUSD', key: 'XXBTZUSD' },
  { coin: 'BTC', base: 'EUR', query: 'XBTEUR', key: 'XXBTZEUR' },
  { coin: 'BTC', base: 'GBP', query: 'XBTGBP', key: 'XXBTZGBP' },
  { coin: 'LTC', base: 'USD', query: 'LTCUSD', key: 'XLTCZUSD' },
  { coin: 'LTC', base: 'EUR', query: 'LTCEUR', key: 'XLTCZEUR' },
  { coin: 'LTC', base: 'BTC', query: 'LTCXBT', key: 'XLTCXXBT' },
  { coin: 'DOGE', base: 'USD', query: 'XDGUSD', key: 'XDGUSD' },
  { coin: 'DOGE', base: 'EUR', query: 'XDGEUR', key: 'XDGEUR' },
  { coin: 'DOGE', base: 'BTC', query: 'XDGXBT', key: 'XXDGXXBT' },
];

export function krakenPriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'kraken';
  const base = baseUrlOf(options, KRAKEN_BASE_URL);
  const now = options.now ?? unixNow;
  const query = KRAKEN_PAIRS.map((p) => p.query).join(',');
  return {
    id: 'kraken',
    name,
    pairs: KRAKEN_PAIRS,
    async fetch(signal) {
      const body = await getJson(`${base}/0/public/Ticker?pair=${query}`, signal);
      if (!isRecord(body)) throw new ExchangeError('Kraken: expected an object');
      const errors = Array.isArray(body.error) ? body.error.map(String) : [];
      if (errors.length > 0) throw new ExchangeError(`Kraken: ${errors.join('; ')}`, errors.some((e) => /rate limit/i.test(e)));
      const result = isRecord(body.result) ? body.result : {};
      const time = now();
      return usable(name, KRAKEN_PAIRS.map((p) => {
        const ticker = result[p.key] ?? result[p.query];
        const last = isRecord(ticker) && Array.isArray(ticker.c) ? ticker.c[0] : undefined;
        return quoteOf(name, p, last, time);
      }));
    },
  };
}
