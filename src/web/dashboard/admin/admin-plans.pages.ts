/** Admin: plans (the same operations as `outpoint plans`: list, create, change its limits) and invites (make, list, revoke). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidArgumentError } from '../../../core/domain/errors.js';
import type { InviteRecord } from '../../../core/store/auth-store.js';
import { DEFAULT_INVITE_HOURS } from '../../../services/accounts/invite-service.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { dataTable } from '../../shell/data-table.js';
import { actionButton, csrfField, field, notice } from '../forms.js';
import { formField, type DashboardContext, type SignedIn } from '../dashboard-context.js';
import { at, count, sendPage, when } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { ADMIN, adminNav, requireAdmin } from './admin.pages.js';

const PLANS = `${ADMIN}/plans`;
const INVITES = `${ADMIN}/invites`;

function wholeNumber(text: string, name: string): number {
  if (!/^\d{1,15}$/.test(text.trim())) throw new InvalidArgumentError(name, 'Enter a whole number of 0 or more.');
  return Number(text.trim());
}

export function adminPlanPages(app: FastifyInstance, ctx: DashboardContext): void {
  const plansPage = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn, message?: { kind: 'ok' | 'bad'; text: string }, status = 200) => {
    const plans = await ctx.d.admin.plans(user.account);
    const body = html`<h1>Admin</h1>${adminNav('plans')}
${message && notice(message.kind, message.text)}
${dataTable({ label: 'Plans', caption: 'Plans', id: 'plans', head: html`<tr><th scope="col">Plan</th><th scope="col" class="num">Requests per UTC day</th><th scope="col" class="num">Requests at once</th><th scope="col">Changed</th></tr>`,
  rows: plans.map((p) => html`<tr><td>${p.name}</td><td class="num">${count(p.maxDailyRequests)}</td><td class="num">${atOnce(p.maxConcurrentRequests)}</td><td>${p.updatedAt === 0 ? 'never' : at(p.updatedAt)}</td></tr>`) })}
<section class="card narrow" aria-labelledby="plan-h"><h2 id="plan-h">Create a plan or change its limits</h2>
<form method="post" action="${PLANS}" class="stack">${csrfField(user.csrf)}
${field('plan', { label: 'Plan name', name: 'name', hint: 'Letters, digits, ".", "_" or "-". An existing name changes that plan.' })}
${field('plan', { label: 'Requests per UTC day', name: 'max', type: 'number', min: 0, inputmode: 'numeric' })}
${field('plan', { label: 'Requests at once (optional)', name: 'concurrent', type: 'number', min: 0, inputmode: 'numeric', required: false, hint: 'Per account, across API processes; 0 = no limit. Empty keeps the plan\'s current value (no limit for a new plan).' })}
<button type="submit">Save plan</button></form></section>`;
    return sendPage(ctx, request, reply, { title: 'Admin: plans', body, user, section: 'admin', status });
  };

  app.get(PLANS, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    return user ? plansPage(request, reply, user) : reply;
  });

  app.post(PLANS, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => {
        const concurrent = formField(request, 'concurrent').trim();
        const plan = await ctx.d.admin.setPlan(user.account, formField(request, 'name').trim(), {
          maxDailyRequests: wholeNumber(formField(request, 'max'), 'max'),
          ...(concurrent === '' ? {} : { maxConcurrentRequests: wholeNumber(concurrent, 'concurrent') }),
        });
        const text = `Plan ${plan.name} allows ${count(plan.maxDailyRequests)} requests per day and ${atOnce(plan.maxConcurrentRequests)} at once; its accounts follow at once.`;
        return plansPage(request, reply, user, { kind: 'ok', text });
      },
      (error: FormError) => plansPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });

  const invitesPage = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn, message?: { kind: 'ok' | 'bad'; text: string | SafeHtml }, status = 200) => {
    const [invites, plans] = await Promise.all([ctx.d.admin.invites(user.account), ctx.d.admin.plans(user.account)]);
    const now = ctx.now();
    const body = html`<h1>Admin</h1>${adminNav('invites')}
${message && notice(message.kind, message.text)}
<p>Registration on this service is <strong>${ctx.d.registration.mode}</strong>. Invite links work while it is invite or open.</p>
<section class="card narrow" aria-labelledby="invite-h"><h2 id="invite-h">New invite link</h2>
<form method="post" action="${INVITES}" class="stack">${csrfField(user.csrf)}
<label for="invite-plan">Plan</label><select id="invite-plan" name="plan">${plans.map((p) => html`<option value="${p.name}">${p.name} (${count(p.maxDailyRequests)} per day)</option>`)}</select>
${field('invite', { label: 'Valid for (hours)', name: 'hours', type: 'number', min: 1, value: String(DEFAULT_INVITE_HOURS), inputmode: 'numeric' })}
<div class="field checkbox"><input id="invite-admin" type="checkbox" name="admin" value="yes"><label for="invite-admin">The new account is an administrator</label></div>
<button type="submit">Make invite link</button></form></section>
${dataTable({ label: 'Invites', caption: 'Invites', id: 'invites', head: html`<tr><th scope="col">Plan</th><th scope="col">Made</th><th scope="col">State</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>`, rows: invites.map((i) => html`<tr><td>${i.plan}${i.isAdmin && html` <span class="badge neutral">admin</span>`}</td><td>${when(i.createdAt, now)}</td><td>${inviteState(i, now)}</td><td>${at(i.expiresAt)}</td>
<td>${i.usedAt === null && i.revokedAt === null && i.expiresAt > now && actionButton(`${INVITES}/${i.id}/revoke`, 'Revoke', user.csrf, { danger: true })}</td></tr>`) })}`;
    return sendPage(ctx, request, reply, { title: 'Admin: invites', body, user, section: 'admin', status });
  };

  app.get(INVITES, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    return user ? invitesPage(request, reply, user) : reply;
  });

  app.post(INVITES, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    if (!user) return reply;
    await handleForm(
      reply,
      async () => {
        const { url } = await ctx.d.admin.createInvite(user.account, {
          plan: formField(request, 'plan'), isAdmin: formField(request, 'admin') === 'yes', expiresHours: wholeNumber(formField(request, 'hours'), 'hours'),
        });
        return invitesPage(request, reply, user, { kind: 'ok', text: html`Send this link to the person you invite (shown once): <code id="invite-link">${url}</code>` }, 201);
      },
      (error: FormError) => invitesPage(request, reply, user, { kind: 'bad', text: error.message }, error.status),
    );
    return reply;
  });

  app.post<{ Params: { id: string } }>(`${INVITES}/:id/revoke`, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    if (!user) return reply;
    const done = await ctx.d.admin.revokeInvite(user.account, Number(request.params.id) || 0);
    return invitesPage(request, reply, user, done ? { kind: 'ok', text: 'The invite was revoked.' } : { kind: 'bad', text: 'That invite was already used, revoked or expired.' });
  });
}

/** A plan's concurrency limit as the page says it (0 is no limit). */
const atOnce = (limit: number): string => (limit > 0 ? count(limit) : 'no limit');

function inviteState(i: InviteRecord, now: number): SafeHtml {
  if (i.usedAt !== null) return html`<span class="badge ok">used</span> ${when(i.usedAt, now)}`;
  if (i.revokedAt !== null) return html`<span class="badge neutral">revoked</span>`;
  return i.expiresAt <= now ? html`<span class="badge neutral">expired</span>` : html`<span class="badge warn">open</span>`;
}
