import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../core/domain/errors.js';
import type { Delivery, Webhook } from '../../core/store/webhook-store.js';
import type { RouteTypes } from '../shared/schema-kit.js';
import { createWebhookSchema, deleteWebhookSchema, deliveriesSchema, listWebhooksSchema, resendSchema } from './schemas/webhook.schemas.js';
import type { V3Context } from './v3-context.js';

function hookData(h: Webhook): Record<string, unknown> {
  return { id: h.id, network: h.network, event: h.event, url: h.url, address: h.address, txid: h.txid, confirmations: h.confirmations, created_at: h.createdAt,
    // Wallet hooks' wallet (null for the other types: the schema lists every field of every hook).
    descriptor: h.descriptor ?? null, gap: h.gap ?? null, wallet: h.descriptor ? h.descriptor.slice(h.descriptor.lastIndexOf('#') + 1) : null };
}

function deliveryData(d: Delivery): Record<string, unknown> {
  return {
    id: d.id, webhook_id: d.hookId, event: d.event, state: d.state, attempts: d.attempts, created_at: Math.floor(d.createdAt / 1000),
    next_attempt_at: d.state === 'pending' ? Math.floor(d.nextAt / 1000) : null, last_status: d.lastStatus, last_error: d.lastError,
  };
}

function principal(request: FastifyRequest): { id: number; plan: string } {
  const p = request.v3Principal;
  if (!p) throw new UnauthorizedError('an API key is required');
  return { id: p.account.id, plan: p.account.plan.name };
}

/** v3 webhooks (docs/webhooks.md): per API key's account; absent when the process has no webhook service. */
export function webhookRoutes(fastify: FastifyInstance, { services }: V3Context): void {
  const hooks = services.webhooks;
  if (!hooks) return;
  const app = fastify.withTypeProvider<RouteTypes>();
  app.post('/webhooks', { schema: createWebhookSchema, bodyLimit: 16_384 }, async (request) => {
    const { id, plan } = principal(request);
    const { hook, secret } = await hooks.create(id, plan, request.body);
    return { status: 'success', data: { ...hookData(hook), secret } };
  });
  app.get('/webhooks', { schema: listWebhooksSchema }, async (request) => ({ status: 'success', data: (await hooks.list(principal(request).id)).map(hookData) }));
  app.delete('/webhooks/:id', { schema: deleteWebhookSchema }, async (request) => {
    await hooks.remove(principal(request).id, Number(request.params.id));
    return { status: 'success', data: { id: Number(request.params.id), deleted: true } };
  });
  app.get('/webhooks/deliveries', { schema: deliveriesSchema }, async (request) => ({
    status: 'success',
    data: (await hooks.recent(principal(request).id)).map(deliveryData),
  }));
  app.post('/webhooks/deliveries/:id/resend', { schema: resendSchema }, async (request) => {
    const { id, plan } = principal(request);
    await hooks.resend(id, plan, request.params.id);
    return { status: 'success', data: { id: request.params.id, state: 'pending' } };
  });
}
