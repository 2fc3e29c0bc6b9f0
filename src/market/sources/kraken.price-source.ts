/**
 * Kraken: GET /0/public/Ticker?pair=XBTUSD,… → {"error":[],"result":{"XXBTZUSD":{"c":["65000.10000","0.001"],…}}}.
 * One request for every pair; results are keyed by Kraken's canonical pair names (XXBTZUSD, XDGUSD, XXDGXXBT),
 * which differ from the names asked for, so each pair lists both. Pairs are asked for by Kraken's names of the coins
 * (XBT for BTC, XDG for DOGE: the coin catalogue's `exchangeNames`). `c[0]` is the last trade price. Errors arrive
 * with HTTP 200 in `error` ("EQuery:Unknown asset pair", "EAPI:Rate limit exceeded").
 */
import type { CoinId } from '../../core/domain/network.js';
import type { PricePair, PriceSource } from '../../core/domain/prices.js';
import { exchangeName } from '../../chains/networks.js';
import { ExchangeError } from '../exchange-error.js';
import { getJson } from '../exchange-http.js';
import { isRecord, priceSource, quoteOf, usable, type SourceOptions } from './source-kit.js';

export const KRAKEN_BASE_URL = 'https://api.kraken.com';

interface KrakenPair extends PricePair {
  /** The name we ask with (altname). */
  readonly query: string;
  /** The canonical key Kraken answers under. */
  readonly key: string;
}

/** A pair asked for by Kraken's names of coin and base (a base may be a coin: LTC in BTC is LTCXBT). */
function krakenPair(coin: CoinId, base: string, key: string): KrakenPair {
  return { coin, base, query: `${exchangeName(coin, 'kraken')}${exchangeName(base, 'kraken')}`, key };
}

export const KRAKEN_PAIRS: readonly KrakenPair[] = [
  krakenPair('BTC', 'USD', 'XXBTZUSD'), krakenPair('BTC', 'EUR', 'XXBTZEUR'), krakenPair('BTC', 'GBP', 'XXBTZGBP'),
  krakenPair('LTC', 'USD', 'XLTCZUSD'), krakenPair('LTC', 'EUR', 'XLTCZEUR'), krakenPair('LTC', 'BTC', 'XLTCXXBT'),
  krakenPair('DOGE', 'USD', 'XDGUSD'), krakenPair('DOGE', 'EUR', 'XDGEUR'), krakenPair('DOGE', 'BTC', 'XXDGXXBT'),
];

export function krakenPriceSource(options: SourceOptions = {}): PriceSource {
  const query = KRAKEN_PAIRS.map((p) => p.query).join(',');
  return priceSource('kraken', KRAKEN_PAIRS, KRAKEN_BASE_URL, options, async ({ name, base, now }, signal) => {
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
  });
}
