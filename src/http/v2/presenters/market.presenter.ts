import type { NetworkInfo } from '../../../services/network/network-info-service.js';
import type { CoinPrices } from '../../../services/prices/price-service.js';
import { decimal8, difficulty } from '../../shared/format.presenter.js';
import { syncingData } from '../../shared/syncing.presenter.js';

export const pricesData = (p: CoinPrices) => ({
  network: p.coin,
  prices: p.quotes.map((q) => ({ price: decimal8(q.price), price_base: q.base, exchange: q.exchange, time: q.time })),
});

/** A network not served here answers with its name and zero figures (see docs/api-v2.md). */
export const infoData = (i: NetworkInfo) => ({
  name: i.name,
  acronym: i.acronym,
  network: i.acronym,
  symbol_htmlcode: i.symbolHtml,
  url: i.url,
  mining_difficulty: difficulty(i.difficulty),
  unconfirmed_txs: i.unconfirmedTxs,
  blocks: i.blocks,
  price: i.price ? decimal8(i.price.price) : '0.00000000',
  price_base: i.priceBase,
  price_update_time: i.price?.time ?? 0,
  hashrate: i.hashrate.toString(),
  syncing: syncingData(i.syncing),
});
