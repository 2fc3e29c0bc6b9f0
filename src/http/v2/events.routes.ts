import type { FastifyInstance } from 'fastify';
import type { FeedPage } from '../../services/events/event-feed-service.js';
import type { RouteTypes } from '../shared/schema-kit.js';
import { feedSchema } from './schemas/events.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA } from './v2-error-spec.js';

function feedData(page: FeedPage): unknown {
  return {
    network: page.network,
    channel: page.channel,
    events: page.events.map((e) => ({ event_id: e.eventId, event: e.event, time: e.time, data: e.data })),
    cursor: page.cursor,
    has_more: page.hasMore,
    last_event_id: page.lastEventId,
  };
}

/** The realtime catch-up feed (an extension: docs/realtime.md, docs/spec-deviations.md); absent when no event log is served. */
export function eventRoutes(fastify: FastifyInstance, { services }: V2Context): void {
  const feed = services.events;
  if (!feed) return;
  fastify.withTypeProvider<RouteTypes>().get(
    '/events/:network',
    { schema: { ...feedSchema, response: { ...feedSchema.response, 410: feedSchema.response[404] } }, config: { v2Error: shapeA('network', 'channel', 'after') } },
    async ({ params, query }) => ({
      status: 'success',
      data: feedData(await feed.after(params.network, query.channel, Number(query.after), query.limit === undefined ? undefined : Math.max(1, Number(query.limit)))),
    }),
  );
}
