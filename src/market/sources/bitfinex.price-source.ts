/**
 * Bitfinex: GET /v2/tickers?symbols=tBTCUSD,… → [[SYMBOL, BID, BID_SIZE, ASK, ASK_SIZE, DAILY_CHANGE,
 * DAILY_CHANGE_RELATIVE, LAST_PRICE, VOLUME, HIGH, LOW], …]. One request for every pair; unknown symbols are left
 * out of the answer. Prices are JSON numbers, read as text (parseJsonNumbersAsText). Errors are ["error", code,
 * "message"] arrays, {"error":"ERR_RATE_LIMIT"} and HTTP 429. Symbols of 4+ letters use a colon (tDOGE:USD);
 * Bitfinex calls Tether "UST".
 */
import type { PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { parseJsonNumbersAsText } from './json-numbers-as-text.js';
import { isRecord, priceSource, quoteOf, symbolPair, usable, type SourceOptions, type SymbolPair } from './source-kit.js';

export const BITFINEX_BASE_URL = 'https://api-pub.bitfinex.com';
const LAST_PRICE = 7;

export const BITFINEX_PAIRS: readonly SymbolPair[] = [
  symbolPair('BTC', 'USD', 'tBTCUSD'), symbolPair('BTC', 'EUR', 'tBTCEUR'), symbolPair('BTC', 'GBP', 'tBTCGBP'), symbolPair('BTC', 'USDT', 'tBTCUST'),
  symbolPair('LTC', 'USD', 'tLTCUSD'), symbolPair('LTC', 'BTC', 'tLTCBTC'), symbolPair('LTC', 'USDT', 'tLTCUST'),
  symbolPair('DOGE', 'USD', 'tDOGE:USD'), symbolPair('DOGE', 'BTC', 'tDOGE:BTC'), symbolPair('DOGE', 'USDT', 'tDOGE:UST'),
];

export function bitfinexPriceSource(options: SourceOptions = {}): PriceSource {
  const symbols = BITFINEX_PAIRS.map((p) => p.symbol).join(',');
  return priceSource('bitfinex', BITFINEX_PAIRS, BITFINEX_BASE_URL, options, async ({ name, base, now }, signal) => {
    const body = await getJson(`${base}/v2/tickers?symbols=${encodeURIComponent(symbols)}`, signal, parseJsonNumbersAsText);
    if (isRecord(body) && 'error' in body) throw new ExchangeError(`Bitfinex: ${String(body.error)}`, /RATE_LIMIT/.test(String(body.error)));
    if (!Array.isArray(body)) throw new ExchangeError('Bitfinex: expected an array of tickers');
    if (body[0] === 'error') throw new ExchangeError(`Bitfinex error ${String(body[1])}: ${String(body[2])}`);
    const time = now();
    const bySymbol = new Map(body.filter(Array.isArray).map((row: unknown[]) => [row[0], row[LAST_PRICE]] as const));
    return usable(name, BITFINEX_PAIRS.map((p) => quoteOf(name, p, bySymbol.get(p.symbol), time)));
  });
}
