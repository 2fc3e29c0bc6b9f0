/**
 * Webhooks in the dashboard (docs/webhooks.md): the account's hooks with their targets, and its newest deliveries with
 * state, attempts and the last error; a hook can be deleted and a finished delivery re-sent. Hooks are registered over
 * the v3 API (their secret belongs in the receiving code, shown once to it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Delivery, Webhook } from '../../../core/store/webhook-store.js';
import { DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import type { WebhookService } from '../../../services/webhooks/webhook-service.js';
import { html } from '../../shell/html.js';
import { actionButton, notice } from '../forms.js';
import { requireUser, type DashboardContext, type SignedIn } from '../dashboard-context.js';
import { sendPage, when } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';
import { dataTable } from '../../shell/data-table.js';

export const WEBHOOKS = `${DASHBOARD_PATH}/webhooks`;

const MESSAGES: Readonly<Record<string, string>> = {
  deleted: 'The webhook was deleted, with its deliveries.',
  resent: 'The delivery will be sent again shortly, with the same id.',
};

export function webhookPages(app: FastifyInstance, ctx: DashboardContext, hooks: WebhookService): void {
  const listPage = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn, message?: { kind: 'ok' | 'bad'; text: string }, status = 200) => {
    const now = ctx.now();
    const [list, deliveries] = await Promise.all([hooks.list(user.account.id), hooks.recent(user.account.id, 50)]);
    const body = html`<h1>Webhooks</h1>
${message && notice(message.kind, message.text)}
<p>Register webhooks with <code>POST /api/v3/webhooks</code> and an API key (<a href="/docs#v3">API reference</a>); each call to your URL is signed with the
hook's secret in <code>X-Outpoint-Signature</code>. Failed deliveries are retried for a day.</p>
${list.length === 0 ? html`<p id="no-hooks">You have no webhooks yet.</p>` : hookTable(list, user, now)}
<h2 id="deliveries-h">Recent deliveries</h2>
${deliveries.length === 0 ? html`<p id="no-deliveries">Nothing delivered yet.</p>` : deliveryTable(deliveries, user, now)}`;
    return sendPage(ctx, request, reply, { title: 'Webhooks', body, user, section: 'webhooks', status });
  };

  app.withTypeProvider<SchemaTyped>().get(WEBHOOKS, { schema: pageQuery('done') }, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    const done = request.query.done;
    return listPage(request, reply, user, done !== undefined && MESSAGES[done] ? { kind: 'ok', text: MESSAGES[done] } : undefined);
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id/delete`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => {
        await hooks.remove(user.account.id, Number(request.params.id) || 0);
        return reply.redirect(`${WEBHOOKS}?done=deleted`, 303);
      },
      (error: FormError) => listPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/deliveries/:id/resend`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => {
        await hooks.resend(user.account.id, user.account.plan.name, request.params.id.slice(0, 64));
        return reply.redirect(`${WEBHOOKS}?done=resent`, 303);
      },
      (error: FormError) => listPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });
}

function target(h: Webhook) {
  if (h.event === 'tx_confirmations') return html`<code>${h.txid}</code> at ${String(h.confirmations)} confirmations`;
  // A wallet by its id (the descriptor's checksum; a multisig descriptor is too long for a table cell) and its gap.
  if (h.descriptor) return html`wallet <code>${h.descriptor.slice(h.descriptor.lastIndexOf('#') + 1)}</code>, gap ${String(h.gap)}`;
  if (h.address !== null) return html`<code>${h.address}</code>`;
  if (h.txid !== null) return html`<code>${h.txid}</code>`;
  return html`every block`;
}

function hookTable(list: readonly Webhook[], user: SignedIn, now: number) {
  // dataTable: below 40rem each row is a card of "heading: value" lines, so nothing scrolls sideways at 375 px.
  return dataTable({
    label: 'Your webhooks', caption: 'Your webhooks', id: 'hooks',
    head: html`<tr><th scope="col">#</th><th scope="col">Event</th><th scope="col">Network</th><th scope="col">Watching</th><th scope="col">URL</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>`,
    rows: list.map((h) => html`<tr data-hook="${String(h.id)}">
<td>${String(h.id)}</td><td>${h.event}</td><td>${h.network}</td><td class="wrap">${target(h)}</td><td class="wrap"><code>${h.url}</code></td><td>${when(h.createdAt, now)}</td>
<td class="actions">${actionButton(`${WEBHOOKS}/${h.id}/delete`, 'Delete', user.csrf, { danger: true })}</td>
</tr>`),
  });
}

function state(d: Delivery) {
  if (d.state === 'delivered') return html`<span class="badge ok">delivered</span>`;
  if (d.state === 'failed') return html`<span class="badge warn">failed</span>`;
  return html`<span class="badge neutral">${d.attempts === 0 ? 'pending' : 'retrying'}</span>`;
}

function deliveryTable(deliveries: readonly Delivery[], user: SignedIn, now: number) {
  return dataTable({
    label: 'The 50 newest deliveries', caption: 'The 50 newest deliveries', id: 'deliveries',
    head: html`<tr><th scope="col">Delivery</th><th scope="col">Hook</th><th scope="col">Event</th><th scope="col">State</th><th scope="col" class="num">Attempts</th><th scope="col">Last error</th><th scope="col">Made</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>`,
    rows: deliveries.map((d) => html`<tr data-delivery="${d.id}">
<td><code>${d.id.slice(0, 12)}…</code></td><td>${String(d.hookId)}</td><td>${d.event}</td><td>${state(d)}</td><td class="num">${String(d.attempts)}</td>
<td class="wrap">${d.state === 'delivered' ? '' : (d.lastError ?? '')}</td><td>${when(Math.floor(d.createdAt / 1000), now)}</td>
<td class="actions">${d.state !== 'pending' && actionButton(`${WEBHOOKS}/deliveries/${d.id}/resend`, 'Re-send', user.csrf, { secondary: true })}</td>
</tr>`),
  });
}
