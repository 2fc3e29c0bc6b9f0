import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { addressDisplayData, balanceData, inputPageData, outputPageData, receivedData, shortData, spentData, validityData } from './presenters/address.presenter.js';
import {
  addressDisplaySchema, balanceSchema, receivedSchema, receivedTxsSchema, shortSchema, spentSchema, spentTxsSchema, unspentSchema, validSchema,
} from './schemas/address.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA, shapeB, shapeBShort } from './v2-error-spec.js';
import { parseCursor, parseOptionalIndex } from './v2-params.js';

/** v2 address operations: balances, totals, FIFO pages, validity, the address page and short forms. */
export function addressRoutes(fastify: FastifyInstance, { services, publicUrl }: V2Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.get(
    '/get_address_balance/:network/:address/:confirmations?',
    { schema: balanceSchema, config: { v2Error: shapeA('network', 'address', 'confirmations') } },
    async ({ params }) => {
      const minConfirmations = parseOptionalIndex(params.confirmations, 'confirmations') ?? 0;
      return { status: 'success', data: balanceData(await services.addresses.balances.balance(params.network, params.address, minConfirmations)) };
    },
  );

  app.get(
    '/get_address_received/:network/:address',
    { schema: receivedSchema, config: { v2Error: shapeA('network', 'address') } },
    async ({ params }) => ({ status: 'success', data: receivedData(await services.addresses.balances.totals(params.network, params.address, { txCounts: false })) }),
  );

  app.get(
    '/get_address_spent/:network/:address',
    { schema: spentSchema, config: { v2Error: shapeA('network', 'address') } },
    async ({ params }) => ({ status: 'success', data: spentData(await services.addresses.balances.totals(params.network, params.address, { txCounts: false })) }),
  );

  const pageError = { v2Error: shapeA('network', 'address', 'after_tx') };
  app.get('/get_tx_unspent/:network/:address/:after_tx?', { schema: unspentSchema, config: pageError }, async ({ params }) => ({
    status: 'success',
    data: outputPageData(await services.addresses.outputs.unspent(params.network, params.address, parseCursor(params.after_tx))),
  }));
  app.get('/get_tx_received/:network/:address/:after_tx?', { schema: receivedTxsSchema, config: pageError }, async ({ params }) => ({
    status: 'success',
    data: outputPageData(await services.addresses.outputs.received(params.network, params.address, parseCursor(params.after_tx))),
  }));
  app.get('/get_tx_spent/:network/:address/:after_tx?', { schema: spentTxsSchema, config: pageError }, async ({ params }) => ({
    status: 'success',
    data: inputPageData(await services.addresses.outputs.spent(params.network, params.address, parseCursor(params.after_tx))),
  }));

  app.get(
    '/is_address_valid/:network/:address',
    { schema: validSchema, config: { v2Error: shapeA('network', 'address') } },
    async ({ params }) => {
      const { network, valid } = services.addresses.balances.isValid(params.network, params.address);
      return { status: 'success', data: validityData(network, params.address, valid) };
    },
  );

  app.get('/address/:network/:address', { schema: addressDisplaySchema, config: { v2Error: shapeB } }, async ({ params }) => ({
    status: 'success',
    data: addressDisplayData(await services.addresses.display.display(params.network, params.address)),
    code: 200,
    message: '',
  }));

  app.get('/short/:network/:address', { schema: shortSchema, config: { v2Error: shapeBShort } }, async ({ params }) => ({
    status: 'success',
    data: shortData(await services.addresses.shorts.resolve(params.network, params.address), publicUrl),
    code: 200,
    message: '',
  }));
}
