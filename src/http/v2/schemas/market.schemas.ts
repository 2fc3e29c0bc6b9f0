import { syncingSchema } from '../../shared/syncing.schema.js';
import { arr, int, obj, P, params, routeSchema, str, success, failA } from '../../shared/schema-kit.js';

const priceData = obj({ network: str, prices: arr(obj({ price: str, price_base: str, exchange: str, time: int })) });

export const priceSchema = (withCoin: boolean, withBase: boolean) =>
  routeSchema({
    summary: 'Latest exchange prices of a coin (default DOGE), optionally in one base currency',
    tag: 'market',
    ...(withCoin ? { params: params({ coin: P.coin, ...(withBase ? { base_currency: P.coin } : {}) }, []) } : {}),
    ok: success(priceData),
    fail: failA,
  });

export const infoSchema = (withNetwork: boolean) =>
  routeSchema({
    summary: 'Network summary (default DOGE): difficulty, height, mempool, price, hash rate',
    tag: 'market',
    ...(withNetwork ? { params: params({ network: P.coin }, []) } : {}),
    ok: success(obj({
      name: str, acronym: str, network: str, symbol_htmlcode: str, url: str, mining_difficulty: str, unconfirmed_txs: int,
      blocks: int, price: str, price_base: str, price_update_time: int, hashrate: str, syncing: syncingSchema,
    })),
    fail: failA,
  });
