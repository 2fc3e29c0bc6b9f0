import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { infoData, pricesData } from './presenters/market.presenter.js';
import { coinPriceSchema, infoSchema, networkInfoSchema, pairPriceSchema, priceSchema } from './schemas/market.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA } from './v2-error-spec.js';

/** get_price and get_info: never 404, an omitted coin or network is DOGE. */
export function marketRoutes(fastify: FastifyInstance, { services }: V2Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  const config = { v2Error: shapeA('network') };
  const price = async (coin?: string, base?: string) => ({ status: 'success', data: pricesData(await services.prices.latest(coin, base)) });
  app.get('/get_price', { schema: priceSchema, config }, () => price());
  app.get('/get_price/:coin', { schema: coinPriceSchema, config }, ({ params }) => price(params.coin));
  app.get('/get_price/:coin/:base_currency', { schema: pairPriceSchema, config }, ({ params }) => price(params.coin, params.base_currency));

  const info = async (network?: string) => ({ status: 'success', data: infoData(await services.network.info.info(network)) });
  app.get('/get_info', { schema: infoSchema, config }, () => info());
  app.get('/get_info/:network', { schema: networkInfoSchema, config }, ({ params }) => info(params.network));
}
