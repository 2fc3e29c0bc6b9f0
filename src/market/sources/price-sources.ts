/** The seven exchanges by configuration id: the one place that knows every adapter. */
import type { PriceSource, PriceSourceId } from '../../core/domain/prices.js';
import { binancePriceSource } from './binance.price-source.js';
import { bitfinexPriceSource } from './bitfinex.price-source.js';
import { bitstampPriceSource } from './bitstamp.price-source.js';
import { coinbasePriceSource } from './coinbase.price-source.js';
import { geminiPriceSource } from './gemini.price-source.js';
import { krakenPriceSource } from './kraken.price-source.js';
import { okxPriceSource } from './okx.price-source.js';
import type { SourceOptions } from './source-kit.js';

/** A Record, so adding an id to PRICE_SOURCE_IDS without an adapter fails to compile. */
const FACTORIES: Readonly<Record<PriceSourceId, (options: SourceOptions) => PriceSource>> = {
  binance: binancePriceSource,
  bitfinex: bitfinexPriceSource,
  bitstamp: bitstampPriceSource,
  coinbase: coinbasePriceSource,
  gemini: geminiPriceSource,
  kraken: krakenPriceSource,
  okx: okxPriceSource,
};

export function createPriceSource(id: PriceSourceId, options: SourceOptions = {}): PriceSource {
  return FACTORIES[id](options);
}
