/**
 * Gemini: GET /v1/pubticker/{btcusd} → {"bid","ask","volume":{"BTC":…,"USD":…,"timestamp":ms},"last"} (prices as
 * strings). One request per pair; errors are {"result":"error","reason":"InvalidSymbol"|"RateLimited",…} with
 * HTTP 400/429.
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, fetchEachPair, isRecord, quoteOf, unixNow, type SourceOptions } from './source-kit.js';

export const GEMINI_BASE_URL = 'https://api.gemini.com';

const pair = (coin: string, base: string): PricePair => ({ coin, base });

export const GEMINI_PAIRS: readonly PricePair[] = [
  pair('BTC', 'USD'), pair('BTC', 'EUR'), pair('BTC', 'GBP'),
  pair('LTC', 'USD'), pair('LTC', 'BTC'),
  pair('DOGE', 'USD'), pair('DOGE', 'BTC'),
];

export function geminiPriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'gemini';
  const base = baseUrlOf(options, GEMINI_BASE_URL);
  const now = options.now ?? unixNow;
  return {
    id: 'gemini',
    name,
    pairs: GEMINI_PAIRS,
    fetch: (signal) => fetchEachPair(name, GEMINI_PAIRS, async (p) => {
      const symbol = `${p.coin}${p.base}`.toLowerCase();
      const body = await getJson(`${base}/v1/pubticker/${symbol}`, signal);
      if (!isRecord(body)) throw new ExchangeError(`Gemini ${symbol}: expected a ticker object`);
      if (body.result === 'error') {
        throw new ExchangeError(`Gemini ${symbol}: ${String(body.reason)} ${String(body.message ?? '')}`.trim(), /rate/i.test(String(body.reason)));
      }
      return quoteOf(name, p, body.last, now());
    }),
  };
}
