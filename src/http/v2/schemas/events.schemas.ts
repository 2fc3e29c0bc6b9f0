import { arr, bool, failA, int, obj, P, params, routeSchema, str, success, type Schema } from '../../shared/schema-kit.js';

/** The query of the catch-up feed: the channel (as subscribed over realtime) and the last event id the client has. */
export const feedQuery = {
  type: 'object',
  required: ['channel', 'after'],
  properties: {
    channel: { type: 'string', minLength: 1, maxLength: 220, description: 'address_{network}_{address} or blockchain_update_{network}, as subscribed' },
    after: { type: 'string', pattern: '^\\d{1,15}$', description: 'The last event_id the client received (0: from the oldest kept)' },
    limit: { type: 'string', pattern: '^\\d{1,4}$', description: 'At most this many events (1-1000, default 1000)' },
  },
} as const;

/** A logged event: `data` is what pusher-js handed the client live (the payload with its event_id). */
const feedEvent = obj({ event_id: int, event: str, time: int, data: { type: 'object', additionalProperties: true } as Schema });

export const feedSchema = {
  ...routeSchema({
    summary: 'Realtime catch-up: the events of a channel after an event_id, oldest first (docs/realtime.md)',
    tag: 'events',
    params: params({ network: P.network }, ['network']),
    ok: success(obj({ network: str, channel: str, events: arr(feedEvent), cursor: int, has_more: bool, last_event_id: int })),
    fail: failA,
  }),
  querystring: feedQuery,
};
