/**
 * Binance spot: GET /api/v3/ticker/price?symbols=["BTCUSDT",…] → [{"symbol":"BTCUSDT","price":"65000.01000000"}].
 * One request for every pair. Errors are {"code":-1121,"msg":"Invalid symbol."} (HTTP 400) and HTTP 429/418 when
 * rate-limited. Binance quotes in USDT rather than USD, so its dollar pairs are published with base USDT.
 */
import type { PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { isRecord, priceSource, quoteOf, symbolPair, usable, type SourceOptions, type SymbolPair } from './source-kit.js';

export const BINANCE_BASE_URL = 'https://api.binance.com';

export const BINANCE_PAIRS: readonly SymbolPair[] = [
  symbolPair('BTC', 'USDT', 'BTCUSDT'), symbolPair('BTC', 'EUR', 'BTCEUR'),
  symbolPair('LTC', 'USDT', 'LTCUSDT'), symbolPair('LTC', 'BTC', 'LTCBTC'),
  symbolPair('DOGE', 'USDT', 'DOGEUSDT'), symbolPair('DOGE', 'EUR', 'DOGEEUR'), symbolPair('DOGE', 'BTC', 'DOGEBTC'),
];

export function binancePriceSource(options: SourceOptions = {}): PriceSource {
  const symbols = encodeURIComponent(JSON.stringify(BINANCE_PAIRS.map((p) => p.symbol)));
  return priceSource('binance', BINANCE_PAIRS, BINANCE_BASE_URL, options, async ({ name, base, now }, signal) => {
    const body = await getJson(`${base}/api/v3/ticker/price?symbols=${symbols}`, signal);
    if (isRecord(body) && 'code' in body) throw new ExchangeError(`Binance error ${String(body.code)}: ${String(body.msg)}`);
    if (!Array.isArray(body)) throw new ExchangeError('Binance: expected an array of tickers');
    const time = now();
    const bySymbol = new Map(body.filter(isRecord).map((t) => [t.symbol, t.price] as const));
    return usable(name, BINANCE_PAIRS.map((p) => quoteOf(name, p, bySymbol.get(p.symbol), time)));
  });
}
