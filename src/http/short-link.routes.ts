import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/create-services.js';

/**
 * The explorer link that v2 `short` hands out (`{public_url}/s/{NETWORK}/{short}`). There is no explorer
 * page yet, so the link leads to the address's v2 display data: a link users share must not be dead.
 */
export function shortLinkRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { network: string; short: string } }>(
    '/s/:network/:short',
    {
      schema: {
        params: {
          type: 'object',
          properties: { network: { type: 'string' }, short: { type: 'string' } },
          required: ['network', 'short'],
        },
      },
    },
    async (request, reply) => {
      const { network, short } = request.params;
      try {
        const found = await services.shorts.resolve(network, short);
        return reply.redirect(`/api/v2/address/${found.network.id}/${encodeURIComponent(found.address)}`, 302);
      } catch {
        return reply.code(404).send({ status: 'fail', code: 404, message: `no address has the short form ${short} on ${network}` });
      }
    },
  );
}
