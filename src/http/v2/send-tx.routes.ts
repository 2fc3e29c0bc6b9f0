import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { sendTxSchema } from './schemas/tx.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA } from './v2-error-spec.js';

/** Signed transactions are at most ~4 MB (8 MB as hex); a little more covers the JSON/form framing. */
const SEND_BODY_LIMIT = 8_500_000;

/**
 * POST send_tx: the body is JSON {tx_hex} or the form field tx_hex (the sample in docs/api-v2.md). The answer
 * carries both readings of the interface: the v2 envelope and the sample's bare network/txid.
 */
export function sendTxRoutes(fastify: FastifyInstance, { services }: V2Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.post(
    '/send_tx/:network',
    { schema: sendTxSchema, bodyLimit: SEND_BODY_LIMIT, config: { v2Error: shapeA('network', 'tx_hex') } },
    async ({ params, body }) => {
      const txHex = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).tx_hex : undefined;
      const { network, txid } = await services.transactions.broadcast.send(params.network, txHex);
      return { status: 'success', data: { network: network.id, txid }, network: network.id, txid };
    },
  );
}
