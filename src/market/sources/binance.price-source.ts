/**
 * Binance spot: GET /api/v3/ticker/price?symbols=["BTCUSDT",…] → [{"symbol":"BTCUSDT","price":"65000.01000000"}].
 * One request for every pair. Errors are {"code":-1121,"msg":"Invalid symbol."} (HTTP 400) and HTTP 429/418 when
 * rate-limited. Binance quotes in USDT rather than USD, so its dollar pairs are published with base USDT.
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, isRecord, quoteOf, unixNow, usable, type SourceOptions } from './source-kit.js';

export const BINANCE_BASE_URL = 'https://api.binance.com';

interface BinancePair extends PricePair {
  readonly symbol: string;
}

export const BINANCE_PAIRS: readonly BinancePair[] = [
  { coin: 'BTC', base: 'USDT', symbol: 'BTCUSDT' },
  { coin: 'BTC', base: 'EUR', symbol: 'BTCEUR' },
  { coin: 'LTC', base: 'USDT', symbol: 'LTCUSDT' },
  { coin: 'LTC', base: 'BTC', symbol: 'LTCBTC' },
  { coin: 'DOGE', base: 'USDT', symbol: 'DOGEUSDT' },
  { coin: 'DOGE', base: 'EUR', symbol: 'DOGEEUR' },
  { coin: 'DOGE', base: 'BTC', symbol: 'DOGEBTC' },
];

export function binancePriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'binance';
  const base = baseUrlOf(options, BINANCE_BASE_URL);
  const now = options.now ?? unixNow;
  const symbols = encodeURIComponent(JSON.stringify(BINANCE_PAIRS.map((p) => p.symbol)));
  return {
    id: 'binance',
    name,
    pairs: BINANCE_PAIRS,
    async fetch(signal) {
      const body = await getJson(`${base}/api/v3/ticker/price?symbols=${symbols}`, signal);
      if (isRecord(body) && 'code' in body) throw new ExchangeError(`Binance error ${String(body.code)}: ${String(body.msg)}`);
      if (!Array.isArray(body)) throw new ExchangeError('Binance: expected an array of tickers');
      const time = now();
      const bySymbol = new Map(body.filter(isRecord).map((t) => [t.symbol, t.price] as const));
      return usable(name, BINANCE_PAIRS.map((p) => quoteOf(name, p, bySymbol.get(p.symbol), time)));
    },
  };
}
