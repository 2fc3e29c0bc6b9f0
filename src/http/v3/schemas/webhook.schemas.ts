import { WEBHOOK_TYPES } from '../../../services/events/catalogue/webhook-types.js';
import { arr, nullable, obj } from '../../shared/schema-kit.js';
import { int, str, v3Params, v3Route } from './v3-schema-kit.js';

/** A hook as listed: everything but its secret (shown once, at registration). */
const hook = obj({
  id: int, network: str, event: str, url: str, address: nullable('string'), txid: nullable('string'), confirmations: nullable('integer'), created_at: int,
  // wallet hooks only: the normalised descriptor, its checksum (the wallet's id, as in its realtime channel) and the gap.
  descriptor: nullable('string'), wallet: nullable('string'), gap: nullable('integer'),
});

export const createWebhookSchema = v3Route({
  summary: 'Register a webhook: JSON {network, event, url, address | txid | descriptor | xpub, confirmations, gap} (docs/webhooks.md); the secret is shown once',
  tag: 'webhooks',
  body: {
    type: 'object',
    required: ['network', 'event', 'url'],
    additionalProperties: false,
    properties: {
      network: { type: 'string', minLength: 1, maxLength: 16 },
      event: { type: 'string', enum: WEBHOOK_TYPES },
      url: { type: 'string', minLength: 1, maxLength: 2000 },
      address: { type: 'string', minLength: 1, maxLength: 200 },
      txid: { type: 'string', minLength: 1, maxLength: 100 },
      confirmations: { type: 'integer', minimum: 1, maximum: 100 },
      descriptor: { type: 'string', minLength: 1, maxLength: 4000 },
      xpub: { type: 'string', minLength: 1, maxLength: 4000 },
      gap: { type: 'integer', minimum: 1, maximum: 1000 },
    },
  },
  data: obj({ ...(hook['properties'] as Record<string, never>), secret: str }),
});

export const listWebhooksSchema = v3Route({ summary: "The account's webhooks (no secrets)", tag: 'webhooks', data: arr(hook) });

export const deleteWebhookSchema = v3Route({
  summary: 'Remove a webhook (all its deliveries go with it)',
  tag: 'webhooks',
  params: v3Params({ id: { type: 'string', pattern: '^\\d{1,15}$' } }, ['id']),
  data: obj({ id: int, deleted: { type: 'boolean' } }),
});

export const deliveriesSchema = v3Route({
  summary: "The account's latest deliveries, newest first: state, attempts, last status and error",
  tag: 'webhooks',
  data: arr(obj({
    id: str, webhook_id: int, event: str, state: str, attempts: int, created_at: int, next_attempt_at: nullable('integer'),
    last_status: nullable('integer'), last_error: nullable('string'),
  })),
});

export const resendSchema = v3Route({
  summary: 'Deliver a finished (delivered or failed) delivery again, with the same id (429 once the day\'s delivery budget is spent)',
  tag: 'webhooks',
  params: v3Params({ id: { type: 'string', pattern: '^[0-9a-f]{32}$' } }, ['id']),
  data: obj({ id: str, state: str }),
});
