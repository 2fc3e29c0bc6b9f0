import type { JSONSchema } from 'json-schema-to-ts';
import { syncingSchema } from '../../shared/syncing.schema.js';
import { arr, int, obj, P, params, routeSchema, str, success, failA } from '../../shared/schema-kit.js';

const priceData = obj({ network: str, prices: arr(obj({ price: str, price_base: str, exchange: str, time: int })) });

const priceRoute = <const Params extends JSONSchema | undefined>(path?: Params) =>
  routeSchema({
    summary: 'Latest exchange prices of a coin (default DOGE), optionally in one base currency',
    tag: 'market',
    params: path,
    ok: success(priceData),
    fail: failA,
  });

export const priceSchema = priceRoute();
export const coinPriceSchema = priceRoute(params({ coin: P.coin }, []));
export const pairPriceSchema = priceRoute(params({ coin: P.coin, base_currency: P.coin }, []));

const infoRoute = <const Params extends JSONSchema | undefined>(path?: Params) =>
  routeSchema({
    summary: 'Network summary (default DOGE): difficulty, height, mempool, price, hash rate',
    tag: 'market',
    params: path,
    ok: success(obj({
      name: str, acronym: str, network: str, symbol_htmlcode: str, url: str, mining_difficulty: str, unconfirmed_txs: int,
      blocks: int, price: str, price_base: str, price_update_time: int, hashrate: str, syncing: syncingSchema,
    })),
    fail: failA,
  });

export const infoSchema = infoRoute();
export const networkInfoSchema = infoRoute(params({ network: P.coin }, []));
