/**
 * API keys: the list (name, public prefix, created, last used, requests today, state), create (the whole key is
 * shown on the answer to the POST, once, never stored or shown again), rotate (a new key; the old one keeps
 * working for the configured grace), revoke (stops at once).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IssuedKey } from '../../services/accounts/account-service.js';
import type { KeyView } from '../../services/accounts/api-key-service.js';
import { DASHBOARD_PATH } from '../../services/accounts/dashboard-links.js';
import { html } from '../shell/html.js';
import { dataTable } from '../shell/data-table.js';
import { actionButton, csrfField, field, notice } from './forms.js';
import { formField, requireUser, type DashboardContext, type SignedIn } from './dashboard-context.js';
import { at, count, sendPage, when } from './dashboard-page.js';
import { handleForm, type FormError } from './form-errors.js';
import { pageQuery, type SchemaTyped } from './page-query.js';

const KEYS = `${DASHBOARD_PATH}/keys`;

/** "1 day", "10 minutes": the grace period in words. */
export function duration(seconds: number): string {
  const [size, unit] = seconds % 86_400 === 0 ? [86_400, 'day'] : seconds % 3600 === 0 ? [3600, 'hour'] : seconds % 60 === 0 ? [60, 'minute'] : [1, 'second'];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

function keyId(request: FastifyRequest): number | null {
  const id = Number((request.params as { id: string }).id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function keysPages(app: FastifyInstance, ctx: DashboardContext): void {
  const listPage = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn, message?: { kind: 'ok' | 'bad'; text: string }, status = 200) => {
    const now = ctx.now();
    const views = await ctx.d.keys.list(user.account);
    const blocked = ctx.d.keys.blocker(user.account);
    const body = html`<h1>API keys</h1>
${message && notice(message.kind, message.text)}
<p>Send a key in the <code>API-KEY</code> header of every <a href="/docs#v3">v3 API</a> request. Keep keys out of web pages and public repositories.
Rotating a key makes a new one; the old key keeps working for ${duration(ctx.d.keys.graceSeconds)} so you can switch without an outage.</p>
${views.length === 0 ? html`<p id="no-keys">You have no keys yet.</p>` : keyTable(views, user, now)}
<section class="card narrow" aria-labelledby="new-key-h"><h2 id="new-key-h">New key</h2>
${blocked ? notice('warn', blocked) : html`<form method="post" action="${KEYS}" class="stack">${csrfField(user.csrf)}
${field('key', { label: 'Name (optional)', name: 'name', required: false, maxlength: 60, hint: 'For you to tell keys apart, e.g. "production" or "CI".' })}
<button type="submit">Create key</button></form>`}
</section>`;
    return sendPage(ctx, request, reply, { title: 'API keys', body, user, section: 'keys', status });
  };

  app.withTypeProvider<SchemaTyped>().get(KEYS, { schema: pageQuery('revoked') }, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    const revoked = request.query.revoked;
    return listPage(request, reply, user, revoked !== undefined ? { kind: 'ok', text: 'The key was revoked: it answers 401 from now on.' } : undefined);
  });

  app.post(KEYS, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => revealPage(ctx, request, reply, user, await ctx.d.keys.create(user.account, formField(request, 'name')), null),
      (error: FormError) => listPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });

  app.post<{ Params: { id: string } }>(`${KEYS}/:id/rotate`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    const id = keyId(request);
    await handleForm(
      reply,
      async () => {
        const issued = await ctx.d.keys.rotate(user.account, id ?? 0);
        return revealPage(ctx, request, reply, user, issued, { prefix: issued.replaced.prefix, until: issued.graceEndsAt });
      },
      (error: FormError) => listPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });

  app.post<{ Params: { id: string } }>(`${KEYS}/:id/revoke`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => {
        await ctx.d.keys.revoke(user.account, keyId(request) ?? 0);
        return reply.redirect(`${KEYS}?revoked=1`, 303);
      },
      (error: FormError) => listPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });
}

function keyTable(views: readonly KeyView[], user: SignedIn, now: number) {
  const state = (v: KeyView) =>
    v.state === 'active' ? html`<span class="badge ok">in use</span>`
      : v.state === 'grace' ? html`<span class="badge warn">rotated, works until ${at(v.key.expiresAt!)}</span>`
        : html`<span class="badge neutral">${v.key.revokedAt !== null ? 'revoked' : 'ended'}</span>`;
  const head = html`<tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col" class="num">Requests today</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>`;
  return dataTable({ label: 'Your API keys', caption: 'Your API keys', id: 'keys', head, rows: views.map((v) => html`<tr data-prefix="${v.key.prefix}">
<td>${v.key.name ?? html`<span class="muted">unnamed</span>`}</td>
<td><code>${v.key.prefix}…</code></td>
<td>${when(v.key.createdAt, now)}</td>
<td>${when(v.key.lastUsedAt, now)}</td>
<td class="num">${count(v.requestsToday)}</td>
<td>${state(v)}</td>
<td class="actions">${v.state === 'active' && actionButton(`${KEYS}/${v.key.id}/rotate`, 'Rotate', user.csrf, { secondary: true })}
${v.state !== 'ended' && actionButton(`${KEYS}/${v.key.id}/revoke`, 'Revoke', user.csrf, { danger: true })}</td>
</tr>`) });
}

/** The one time a key is shown: copy button, a curl line to try it, the rotated key's grace. */
function revealPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, user: SignedIn, issued: IssuedKey, rotated: { prefix: string; until: number } | null) {
  const curl = `curl -H "API-KEY: ${issued.key}" ${ctx.publicUrl}/api/v3/account_info`;
  const body = html`<h1>${rotated ? 'Key rotated' : 'Key created'}</h1>
${notice('warn', html`Copy your key now. <strong>It is shown only this once</strong>: we keep only a hash of it.`)}
<section class="card" aria-labelledby="key-h"><h2 id="key-h">${issued.record.name ?? 'Your new key'}</h2>
<div class="copy-line"><pre><code id="new-key">${issued.key}</code></pre><button type="button" class="secondary" data-copy="new-key" hidden>Copy</button></div>
${rotated && html`<p>The old key <code>${rotated.prefix}…</code> keeps working until ${at(rotated.until)}; then it answers 401.</p>`}
<h3>Try it</h3>
<div class="copy-line"><pre><code id="curl-line">${curl}</code></pre><button type="button" class="secondary" data-copy="curl-line" hidden>Copy</button></div>
</section>
<p><a class="button" href="${KEYS}">Done: back to your keys</a></p>`;
  return sendPage(ctx, request, reply, { title: rotated ? 'Key rotated' : 'Key created', body, user, section: 'keys', status: 201 });
}
