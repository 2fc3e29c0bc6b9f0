import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { addressSummarySchema, balanceSchema, isValidAddressSchema, transactionCountsSchema, transactionsSchema, unspentOutputsSchema } from './schemas/address.schemas.js';
import { balanceData, countsData, summaryData, transactionsData, unspentOutputsData } from './presenters/address.presenter.js';
import type { V3Context } from './v3-context.js';
import { parsePage } from './v3-params.js';

/** v3 address reads over the same services as v2, plus numbered pages. */
export function addressRoutes(fastify: FastifyInstance, { services }: V3Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.get('/transactions/:network/:address/:page?', { schema: transactionsSchema }, async ({ params }) => {
    const page = await services.addresses.pages.transactions(params.network, params.address, parsePage(params.page));
    const prices = await services.prices.usdAtTimes(page.network.params, page.items.map((i) => i.time));
    return { status: 'success', data: transactionsData(page, prices) };
  });

  app.get('/transaction_counts/:network/:address', { schema: transactionCountsSchema }, async ({ params }) => ({
    status: 'success',
    data: countsData(await services.addresses.pages.counts(params.network, params.address)),
  }));

  app.get('/unspent_outputs/:network/:address/:page?', { schema: unspentOutputsSchema }, async ({ params }) => ({
    status: 'success',
    data: unspentOutputsData(await services.addresses.pages.unspentOutputs(params.network, params.address, parsePage(params.page))),
  }));

  app.get('/balance/:network/:address', { schema: balanceSchema }, async ({ params }) => ({
    status: 'success',
    data: balanceData(await services.addresses.balances.balance(params.network, params.address, 0)),
  }));

  app.get('/address_summary/:network/:address', { schema: addressSummarySchema }, async ({ params }) => ({
    status: 'success',
    data: summaryData(await services.addresses.pages.counts(params.network, params.address)),
  }));

  app.get('/is_valid_address/:network/:address', { schema: isValidAddressSchema }, async ({ params }) => ({
    status: 'success',
    data: { is_valid: services.addresses.balances.isValid(params.network, params.address).valid },
  }));
}
