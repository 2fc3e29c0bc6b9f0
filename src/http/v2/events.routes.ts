import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { jsonpCallback } from '../plugins/jsonp.plugin.js';
import type { RouteTypes } from '../shared/schema-kit.js';
import { feedSchema } from './schemas/events.schemas.js';
import type { V2Context } from './v2-context.js';
import { feedPageChunks } from './events-page.js';
import { shapeA } from './v2-error-spec.js';

/**
 * The realtime catch-up feed (an extension: docs/realtime.md, docs/spec-deviations.md); absent when no event log is
 * served. Streamed, bounded in bytes as well as in events (events-page.ts), its bytes counted per client network.
 */
export function eventRoutes(fastify: FastifyInstance, { services }: V2Context): void {
  const feed = services.events;
  if (!feed) return;
  fastify.withTypeProvider<RouteTypes>().get(
    '/events/:network',
    { schema: { ...feedSchema, response: { ...feedSchema.response, 410: feedSchema.response[404] } }, config: { v2Error: shapeA('network', 'channel', 'after') } },
    async (request, reply) => {
      const { params, query } = request;
      const stream = await feed.open(params.network, query.channel, Number(query.after), query.limit === undefined ? undefined : Math.max(1, Number(query.limit)));
      // A client network whose bytes of the minute are spent is refused before anything is read past the first rows.
      await feed.limits.budget.take(request.ip, 0);
      const chunks = feedPageChunks(stream, feed.limits.pageBytes, (bytes) => feed.limits.budget.take(request.ip, bytes));
      reply.type('application/json; charset=utf-8');
      // JSONP wraps a whole text (jsonp.plugin.ts): the page is bounded, so it is gathered for it.
      if (jsonpCallback(request) !== null) {
        let text = '';
        for await (const chunk of chunks) text += chunk;
        return reply.send(text);
      }
      return reply.send(Readable.from(chunks));
    },
  );
}
