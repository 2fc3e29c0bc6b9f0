import type { FastifyInstance } from 'fastify';
import { infoData, pricesData } from './presenters/market.presenter.js';
import { infoSchema, priceSchema } from './schemas/market.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA } from './v2-error-spec.js';

type PriceParams = { coin?: string; base_currency?: string };

/** get_price and get_info: never 404, an omitted coin or network is DOGE. */
export function marketRoutes(app: FastifyInstance, { services }: V2Context): void {
  const config = { v2Error: shapeA('network') };
  const price = async ({ params }: { params: PriceParams }) => ({
    status: 'success',
    data: pricesData(await services.prices.latest(params.coin, params.base_currency)),
  });
  app.get<{ Params: PriceParams }>('/get_price', { schema: priceSchema(false, false), config }, price);
  app.get<{ Params: PriceParams }>('/get_price/:coin', { schema: priceSchema(true, false), config }, price);
  app.get<{ Params: PriceParams }>('/get_price/:coin/:base_currency', { schema: priceSchema(true, true), config }, price);

  const info = async ({ params }: { params: { network?: string } }) => ({ status: 'success', data: infoData(await services.network.info.info(params.network)) });
  app.get<{ Params: { network?: string } }>('/get_info', { schema: infoSchema(false), config }, info);
  app.get<{ Params: { network?: string } }>('/get_info/:network', { schema: infoSchema(true), config }, info);
}
