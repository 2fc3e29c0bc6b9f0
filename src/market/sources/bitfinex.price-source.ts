/**
 * Bitfinex: GET /v2/tickers?symbols=tBTCUSD,… → [[SYMBOL, BID, BID_SIZE, ASK, ASK_SIZE, DAILY_CHANGE,
 * DAILY_CHANGE_RELATIVE, LAST_PRICE, VOLUME, HIGH, LOW], …]. One request for every pair; unknown symbols are left
 * out of the answer. Prices are JSON numbers, read as text (parseJsonNumbersAsText). Errors are ["error", code,
 * "message"] arrays, {"error":"ERR_RATE_LIMIT"} and HTTP 429. Symbols of 4+ letters use a colon (tDOGE:USD);
 * Bitfinex calls Tether "UST".
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { parseJsonNumbersAsText } from './json-numbers-as-text.js';
import { baseUrlOf, isRecord, quoteOf, unixNow, usable, type SourceOptions } from './source-kit.js';

export const BITFINEX_BASE_URL = 'https://api-pub.bitfinex.com';
const LAST_PRICE = 7;

interface BitfinexPair extends PricePair {
  readonly symbol: string;
}

export const BITFINEX_PAIRS: readonly BitfinexPair[] = [
  { coin: 'BTC', base: 'USD', symbol: 'tBTCUSD' },
  { coin: 'BTC', base: 'EUR', symbol: 'tBTCEUR' },
  { coin: 'BTC', base: 'GBP', symbol: 'tBTCGBP' },
  { coin: 'BTC', base: 'USDT', symbol: 'tBTCUST' },
  { coin: 'LTC', base: 'USD', symbol: 'tLTCUSD' },
  { coin: 'LTC', base: 'BTC', symbol: 'tLTCBTC' },
  { coin: 'LTC', base: 'USDT', symbol: 'tLTCUST' },
  { coin: 'DOGE', base: 'USD', symbol: 'tDOGE:USD' },
  { coin: 'DOGE', base: 'BTC', symbol: 'tDOGE:BTC' },
  { coin: 'DOGE', base: 'USDT', symbol: 'tDOGE:UST' },
];

export function bitfinexPriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'bitfinex';
  const base = baseUrlOf(options, BITFINEX_BASE_URL);
  const now = options.now ?? unixNow;
  const symbols = BITFINEX_PAIRS.map((p) => p.symbol).join(',');
  return {
    id: 'bitfinex',
    name,
    pairs: BITFINEX_PAIRS,
    async fetch(signal) {
      const body = await getJson(`${base}/v2/tickers?symbols=${encodeURIComponent(symbols)}`, signal, parseJsonNumbersAsText);
      if (isRecord(body) && 'error' in body) throw new ExchangeError(`Bitfinex: ${String(body.error)}`, /RATE_LIMIT/.test(String(body.error)));
      if (!Array.isArray(body)) throw new ExchangeError('Bitfinex: expected an array of tickers');
      if (body[0] === 'error') throw new ExchangeError(`Bitfinex error ${String(body[1])}: ${String(body[2])}`);
      const time = now();
      const bySymbol = new Map(body.filter(Array.isArray).map((row: unknown[]) => [row[0], row[LAST_PRICE]] as const));
      return usable(name, BITFINEX_PAIRS.map((p) => quoteOf(name, p, bySymbol.get(p.symbol), time)));
    },
  };
}
