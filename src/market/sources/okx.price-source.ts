/**
 * OKX: GET /api/v5/market/ticker?instId=BTC-USDT → {"code":"0","msg":"","data":[{"instId","last","ts",…}]}.
 * One request per pair. Errors keep the envelope with a non-zero code, e.g. {"code":"51001","msg":"Instrument ID
 * does not exist","data":[]}; "50011" (and HTTP 429) means rate-limited. OKX's dollar markets are USDT.
 */
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { baseUrlOf, fetchEachPair, isRecord, quoteOf, unixNow, type SourceOptions } from './source-kit.js';

export const OKX_BASE_URL = 'https://www.okx.com';
const RATE_LIMIT_CODE = '50011';

const pair = (coin: string, base: string): PricePair => ({ coin, base });

export const OKX_PAIRS: readonly PricePair[] = [
  pair('BTC', 'USDT'), pair('BTC', 'EUR'),
  pair('LTC', 'USDT'), pair('LTC', 'BTC'),
  pair('DOGE', 'USDT'), pair('DOGE', 'BTC'),
];

export function okxPriceSource(options: SourceOptions = {}): PriceSource {
  const name = 'okx';
  const base = baseUrlOf(options, OKX_BASE_URL);
  const now = options.now ?? unixNow;
  return {
    id: 'okx',
    name,
    pairs: OKX_PAIRS,
    fetch: (signal) => fetchEachPair(name, OKX_PAIRS, async (p) => {
      const instId = `${p.coin}-${p.base}`;
      const body = await getJson(`${base}/api/v5/market/ticker?instId=${instId}`, signal);
      if (!isRecord(body)) throw new ExchangeError(`OKX ${instId}: expected an object`);
      const code = String(body.code);
      if (code !== '0') throw new ExchangeError(`OKX ${instId}: error ${code} ${String(body.msg ?? '')}`.trim(), code === RATE_LIMIT_CODE);
      const ticker = Array.isArray(body.data) ? body.data.find((t) => isRecord(t) && t.instId === instId) : undefined;
      return quoteOf(name, p, isRecord(ticker) ? ticker.last : undefined, now());
    }),
  };
}
