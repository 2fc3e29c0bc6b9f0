import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { feeEstimatesData } from './presenters/fee.presenter.js';
import { accountInfoData, networkInfoData } from './presenters/network.presenter.js';
import { priceObject } from './presenters/price.presenter.js';
import { feeEstimatesSchema } from './schemas/fee.schemas.js';
import { accountInfoSchema, networkInfoSchema, priceSchema } from './schemas/network.schemas.js';
import type { V3Context } from './v3-context.js';
import { parseTimestamp } from './v3-params.js';

/** v3 price, network status, fee estimates and the caller's account. */
export function networkRoutes(fastify: FastifyInstance, { services, accounts, now }: V3Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.get('/price/:network/:timestamp?', { schema: priceSchema }, async ({ params }) => {
    const ctx = services.networks.resolve(params.network);
    const time = parseTimestamp(params.timestamp);
    const quote = time === undefined ? await services.prices.usdNow(ctx.params) : await services.prices.usdAt(ctx.params, time);
    return { status: 'success', data: priceObject(quote) };
  });

  app.get('/network_info/:network', { schema: networkInfoSchema }, async ({ params }) => ({
    status: 'success',
    data: networkInfoData(await services.network.chain.status(params.network)),
  }));

  app.get('/fee_estimates/:network', { schema: feeEstimatesSchema }, async ({ params }) => ({
    status: 'success',
    data: feeEstimatesData(await services.fees.estimates(params.network)),
  }));

  app.get('/account_info', { schema: accountInfoSchema, config: { quotaFree: true } }, async (request) => {
    const { account } = request.v3Principal!;
    const data = accountInfoData(account, await accounts.usage.read(account.id, now()), now());
    return { status: 'success', data, ...data };
  });
}
