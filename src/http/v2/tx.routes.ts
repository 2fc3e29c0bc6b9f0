import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../core/domain/errors.js';
import { confidenceData, confirmedData, inputsData, outputsData, spentData, txData, txDisplayData } from './presenters/tx.presenter.js';
import { confidenceSchema, confirmedSchema, inputsSchema, isSpentSchema, outputsSchema, txDisplaySchema, txSchema } from './schemas/tx.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA, shapeB } from './v2-error-spec.js';
import { parseIndex, parseOptionalIndex } from './v2-params.js';

/** These answers show no spender of any output: skip finding them. */
const NO_SPENDERS = { spenders: false } as const;

type TxParams = { network: string; txid: string };

/** Picks item `n` of a transaction's inputs or outputs; a number past the end is reported on that field. */
function pick<T>(items: readonly T[], n: number | undefined, field: string): T | undefined {
  if (n === undefined) return undefined;
  const item = items[n];
  if (item === undefined) throw new NotFoundError(field, `the transaction has no ${field.replace('_no', '')} ${n}`);
  return item;
}

/** v2 transaction operations. */
export function txRoutes(app: FastifyInstance, { services }: V2Context): void {
  app.get<{ Params: TxParams }>('/get_confidence/:network/:txid', { schema: confidenceSchema, config: { v2Error: shapeA('network', 'txid') } }, async ({ params }) => ({
    status: 'success',
    data: confidenceData(await services.transactions.confidence.get(params.network, params.txid)),
  }));

  app.get<{ Params: TxParams & { input_no?: string } }>(
    '/get_tx_inputs/:network/:txid/:input_no?',
    { schema: inputsSchema, config: { v2Error: shapeA('network', 'txid', 'input_no') } },
    async ({ params }) => {
      const n = parseOptionalIndex(params.input_no, 'input_no');
      const view = await services.transactions.reads.get(params.network, params.txid, NO_SPENDERS);
      return { status: 'success', data: inputsData(view, pick(view.inputs, n, 'input_no')) };
    },
  );

  app.get<{ Params: TxParams & { output_no?: string } }>(
    '/get_tx_outputs/:network/:txid/:output_no?',
    { schema: outputsSchema, config: { v2Error: shapeA('network', 'txid', 'output_no') } },
    async ({ params }) => {
      const n = parseOptionalIndex(params.output_no, 'output_no');
      const view = await services.transactions.reads.get(params.network, params.txid, NO_SPENDERS);
      return { status: 'success', data: outputsData(view, pick(view.outputs, n, 'output_no')) };
    },
  );

  app.get<{ Params: TxParams }>('/get_tx/:network/:txid', { schema: txSchema, config: { v2Error: shapeA('network', 'txid') } }, async ({ params }) => ({
    status: 'success',
    data: txData(await services.transactions.reads.get(params.network, params.txid, NO_SPENDERS)),
  }));

  app.get<{ Params: TxParams }>('/is_tx_confirmed/:network/:txid', { schema: confirmedSchema, config: { v2Error: shapeA('network', 'txid') } }, async ({ params }) => ({
    status: 'success',
    data: confirmedData(await services.transactions.reads.status(params.network, params.txid)),
  }));

  app.get<{ Params: TxParams & { output_no: string } }>(
    '/is_tx_spent/:network/:txid/:output_no',
    { schema: isSpentSchema, config: { v2Error: shapeA('network', 'txid', 'output_no') } },
    async ({ params }) => {
      const n = parseIndex(params.output_no, 'output_no');
      const view = await services.transactions.reads.get(params.network, params.txid);
      return { status: 'success', data: spentData(view, pick(view.outputs, n, 'output_no')!) };
    },
  );

  app.get<{ Params: TxParams }>('/tx/:network/:txid', { schema: txDisplaySchema, config: { v2Error: shapeB } }, async ({ params }) => {
    const view = await services.transactions.reads.get(params.network, params.txid);
    return { status: 'success', data: txDisplayData(view, await services.transactions.reads.doubleSpend(view)), code: 200, message: '' };
  });
}
