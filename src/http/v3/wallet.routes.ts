import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { walletAddressesData, walletSummaryData, walletTransactionsData, walletUnspentData } from './presenters/wallet.presenter.js';
import { walletAddressesSchema, walletSummarySchema, walletTransactionsSchema, walletUnspentSchema } from './schemas/wallet.schemas.js';
import type { V3Context } from './v3-context.js';
import { parsePage } from './v3-params.js';

/** `?gap=N` as a number (NaN for anything but digits: the service refuses it, naming the range); undefined: the default. */
function parseGap(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
}

/** v3 wallets: an extended public key or output descriptor as one wallet (docs/wallets.md); API key and quota as every v3 route. */
export function walletRoutes(fastify: FastifyInstance, { services }: V3Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  const wallets = services.wallets;
  app.get('/xpub/:network/:wallet', { schema: walletSummarySchema }, async ({ params, query, ip }) => ({
    status: 'success',
    data: walletSummaryData(await wallets.summary(params.network, params.wallet, parseGap(query.gap), ip)),
  }));

  app.get('/xpub/:network/:wallet/transactions/:page?', { schema: walletTransactionsSchema }, async ({ params, query, ip }) => ({
    status: 'success',
    data: walletTransactionsData(await wallets.transactions(params.network, params.wallet, parsePage(params.page), parseGap(query.gap), ip)),
  }));

  app.get('/xpub/:network/:wallet/unspent_outputs/:page?', { schema: walletUnspentSchema }, async ({ params, query, ip }) => ({
    status: 'success',
    data: walletUnspentData(await wallets.unspentOutputs(params.network, params.wallet, parsePage(params.page), parseGap(query.gap), ip)),
  }));

  app.get('/xpub/:network/:wallet/addresses', { schema: walletAddressesSchema }, async ({ params, query, ip }) => ({
    status: 'success',
    data: walletAddressesData(await wallets.addresses(params.network, params.wallet, parseGap(query.gap), ip)),
  }));
}
