/**
 * Admin (administrators only; AdminService checks again): accounts with search and their usage, one account's
 * page with plan change, disable/enable, administrator role, second-factor reset and a password reset link.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../../core/store/account-store.js';
import { ForbiddenError } from '../../../core/domain/errors.js';
import { DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { dataTable } from '../../shell/data-table.js';
import { actionButton, csrfField, notice } from '../forms.js';
import { requireUser, formField, type DashboardContext, type SignedIn } from '../dashboard-context.js';
import { at, count, sendPage, when } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';

export const ADMIN = `${DASHBOARD_PATH}/admin`;

export function adminNav(current: 'accounts' | 'plans' | 'invites'): SafeHtml {
  const links = [['accounts', 'Accounts', ADMIN], ['plans', 'Plans', `${ADMIN}/plans`], ['invites', 'Invites', `${ADMIN}/invites`]] as const;
  return html`<nav class="sub-nav" aria-label="Admin"><ul>${links.map(([id, label, href]) => html`<li><a href="${href}"${id === current && html` aria-current="page"`}>${label}</a></li>`)}</ul></nav>`;
}

/** The signed-in administrator, or null after a redirect (signed out) or a 403 page (not an administrator). */
export async function requireAdmin(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> {
  const user = await requireUser(ctx, request, reply);
  if (!user) return null;
  if (user.account.isAdmin) return user;
  await ctx.shell.errorPage(request, reply, 403, 'Administrators only', new ForbiddenError().message);
  return null;
}

const DONE: Readonly<Record<string, string>> = {
  plan: 'The plan was changed; the account\'s keys follow it at once.',
  disabled: 'The account is disabled: its keys answer 401 and it was signed out.',
  enabled: 'The account is enabled again.',
  role: 'The administrator role was changed.',
  'totp-reset': 'The second factor was turned off; the user signs in with the password alone.',
};

export function adminPages(app: FastifyInstance, ctx: DashboardContext): void {
  app.withTypeProvider<SchemaTyped>().get(ADMIN, { schema: pageQuery('q', 'page') }, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    if (!user) return reply;
    const q = request.query.q ?? '';
    const page = Math.max(1, Math.min(1_000_000, Number.parseInt(request.query.page ?? '1', 10) || 1));
    const [{ accounts, more }, usage] = await Promise.all([ctx.d.admin.searchAccounts(user.account, q, page), ctx.d.admin.usage(user.account)]);
    const now = ctx.now();
    const body = html`<h1>Admin</h1>${adminNav('accounts')}
<form method="get" action="${ADMIN}" class="inline-search" role="search"><label for="admin-q">Find accounts by email</label>
<input id="admin-q" type="search" name="q" value="${q}"><button type="submit">Find</button></form>
${dataTable({ label: 'Accounts', caption: q ? `Accounts matching “${q}”` : 'Accounts', id: 'accounts', head: html`<tr><th scope="col">Email</th><th scope="col">Plan</th><th scope="col">State</th><th scope="col" class="num">Requests today</th><th scope="col" class="num">Last 30 days</th><th scope="col">Last sign-in</th></tr>`, rows: accounts.map((a) => html`<tr>
<td><a href="${ADMIN}/accounts/${a.id}">${a.email}</a>${a.isAdmin && html` <span class="badge neutral">admin</span>`}</td>
<td>${a.plan.name}</td><td>${stateBadge(a)}</td>
<td class="num">${count(usage.get(a.id)?.today ?? 0)}</td><td class="num">${count(usage.get(a.id)?.last30 ?? 0)}</td>
<td>${when(a.lastLoginAt, now)}</td></tr>`) })}
${accounts.length === 0 && html`<p>No accounts found.</p>`}
<nav class="pager" aria-label="Pages">${page > 1 && html`<a href="${withQuery(ADMIN, { q, page: page - 1 })}">Previous page</a>`}${more && html`<a href="${withQuery(ADMIN, { q, page: page + 1 })}">Next page</a>`}</nav>`;
    return sendPage(ctx, request, reply, { title: 'Admin: accounts', body, user, section: 'admin' });
  });

  /** `done`: the action the page was redirected back from (its `?done=`), shown when there is no `message`. */
  const accountPage = async (
    request: FastifyRequest, reply: FastifyReply, user: SignedIn, id: number, message?: { kind: 'ok' | 'bad'; text: string | SafeHtml }, status = 200, doneAction?: string,
  ) => {
    const [account, plans] = await Promise.all([ctx.d.admin.account(user.account, id), ctx.d.admin.plans(user.account)]);
    const done = DONE[doneAction ?? ''];
    const base = `${ADMIN}/accounts/${account.id}`;
    const now = ctx.now();
    const body = html`<h1>${account.email}</h1>${adminNav('accounts')}
${message ? notice(message.kind, message.text) : done && notice('ok', done)}
<dl class="kv">
<dt>State</dt><dd>${stateBadge(account)}</dd>
<dt>Plan</dt><dd>${account.plan.name} (${count(account.plan.maxDailyRequests)} requests per day)</dd>
<dt>Created</dt><dd>${at(account.createdAt)}</dd>
<dt>Period ends</dt><dd>${at(account.periodEndsAt)}${account.willRenew ? ' (renews)' : ' (does not renew)'}</dd>
<dt>Email</dt><dd>${account.emailVerifiedAt !== null ? 'confirmed' : 'not confirmed'}</dd>
<dt>Second factor</dt><dd>${account.totpEnabled ? 'on' : 'off'}</dd>
<dt>Last sign-in</dt><dd>${when(account.lastLoginAt, now)}</dd>
</dl>
<div class="grid">
<section class="card" aria-labelledby="plan-h"><h2 id="plan-h">Plan</h2>
<form method="post" action="${base}/plan" class="stack">${csrfField(user.csrf)}<label for="plan-select">Plan</label>
<select id="plan-select" name="plan">${plans.map((p) => html`<option value="${p.name}"${p.name === account.plan.name && html` selected`}>${p.name} (${count(p.maxDailyRequests)} per day)</option>`)}</select>
<button type="submit">Change plan</button></form></section>
<section class="card" aria-labelledby="access-h"><h2 id="access-h">Access</h2>
<div class="actions">${account.disabledAt === null ? actionButton(`${base}/disable`, 'Disable the account', user.csrf, { danger: true }) : actionButton(`${base}/enable`, 'Enable the account', user.csrf)}
${actionButton(`${base}/role`, account.isAdmin ? 'Remove the administrator role' : 'Make administrator', user.csrf, { secondary: true, hidden: { admin: account.isAdmin ? 'no' : 'yes' } })}
${account.totpEnabled && actionButton(`${base}/reset-2fa`, 'Turn the second factor off', user.csrf, { secondary: true })}
${actionButton(`${base}/reset-link`, 'Make a password reset link', user.csrf, { secondary: true })}</div></section>
</div>`;
    return sendPage(ctx, request, reply, { title: `Admin: ${account.email}`, body, user, section: 'admin', status });
  };

  const accountId = (request: FastifyRequest) => Number((request.params as { id: string }).id) || 0;

  app.withTypeProvider<SchemaTyped>().get(`${ADMIN}/accounts/:id`, { schema: pageQuery('done') }, async (request, reply) => {
    const user = await requireAdmin(ctx, request, reply);
    return user ? accountPage(request, reply, user, accountId(request), undefined, 200, request.query.done) : reply;
  });

  /** An account action: redirect back with its message, or the page with the refusal. */
  const act = (path: string, action: (user: SignedIn, id: number, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.post<{ Params: { id: string } }>(`${ADMIN}/accounts/:id/${path}`, async (request, reply) => {
      const user = await requireAdmin(ctx, request, reply);
      if (!user) return reply;
      const id = accountId(request);
      await handleForm(reply, () => action(user, id, request, reply), (error: FormError) => accountPage(request, reply, user, id, { kind: 'bad', text: error.message }, error.status));
      return reply;
    });
  const back = (reply: FastifyReply, id: number, done: string) => reply.redirect(`${ADMIN}/accounts/${id}?done=${done}`, 303);

  act('plan', async (user, id, request, reply) => back(reply, (await ctx.d.admin.changePlan(user.account, id, formField(request, 'plan'))).id, 'plan'));
  act('disable', async (user, id, _r, reply) => back(reply, (await ctx.d.admin.setDisabled(user.account, id, true, ctx.now())).id, 'disabled'));
  act('enable', async (user, id, _r, reply) => back(reply, (await ctx.d.admin.setDisabled(user.account, id, false, ctx.now())).id, 'enabled'));
  act('role', async (user, id, request, reply) => back(reply, (await ctx.d.admin.setAdmin(user.account, id, formField(request, 'admin') === 'yes')).id, 'role'));
  act('reset-2fa', async (user, id, _r, reply) => {
    await ctx.d.admin.resetSecondFactor(user.account, id);
    return back(reply, id, 'totp-reset');
  });
  act('reset-link', async (user, id, request, reply) => {
    const link = await ctx.d.admin.resetLink(user.account, id);
    return accountPage(request, reply, user, id, { kind: 'ok', text: html`Give this one-time link (60 minutes) to the user: <code id="reset-link">${link}</code>` });
  });
}

function stateBadge(a: AccountRecord): SafeHtml {
  return a.disabledAt !== null ? html`<span class="badge bad">disabled</span>` : html`<span class="badge ok">active</span>`;
}
