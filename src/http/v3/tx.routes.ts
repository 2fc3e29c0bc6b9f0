import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../core/domain/errors.js';
import { transactionData } from './presenters/tx.presenter.js';
import { broadcastSchema, transactionSchema } from './schemas/tx.schemas.js';
import type { V3Context } from './v3-context.js';

/** Signed transactions are at most ~4 MB (8 MB as hex), plus the JSON framing. */
const BROADCAST_BODY_LIMIT = 8_500_000;

/** v3 transaction read and broadcast. */
export function txRoutes(app: FastifyInstance, { services }: V3Context): void {
  app.get<{ Params: { network: string; hash: string } }>('/transaction/:network/:hash', { schema: transactionSchema }, async ({ params }) => {
    const view = await services.transactions.reads.get(params.network, params.hash).catch((error: unknown) => {
      // The shared service names its field txid (v2's word); v3 says hash.
      if (error instanceof NotFoundError) throw new NotFoundError('hash', error.message);
      throw error;
    });
    const price = await services.prices.usdAt(view.network.params, view.record.time);
    return { status: 'success', data: transactionData(view, price) };
  });

  app.post<{ Params: { network: string }; Body: { tx_hex: string } }>(
    '/broadcast_transaction/:network',
    { schema: broadcastSchema, bodyLimit: BROADCAST_BODY_LIMIT },
    async ({ params, body }) => {
      const { network, txid } = await services.transactions.broadcast.send(params.network, body.tx_hex);
      return { status: 'success', data: { network: network.id, hash: txid } };
    },
  );
}
