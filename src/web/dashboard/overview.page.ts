/**
 * The overview: plan, daily limit, period, requests today and yesterday against the limit (the same counts as
 * account_info), the last 30 days as a chart and a table, the last API request and sign-ins; a banner while the
 * email address waits for its confirmation.
 */
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_PATH } from '../../services/accounts/dashboard-links.js';
import type { UsageOverview } from '../../services/accounts/usage-service.js';
import { html } from '../shell/html.js';
import { actionButton, notice } from './forms.js';
import { requireUser, type DashboardContext, type SignedIn } from './dashboard-context.js';
import { at, count, sendPage, when } from './dashboard-page.js';
import { usageChart } from './usage-chart.js';

const sum = (days: UsageOverview['days'], from: number, to: number) => days.slice(from, to).reduce((a, d) => a + d.count, 0);

export function overviewPage(app: FastifyInstance, ctx: DashboardContext): void {
  app.get(DASHBOARD_PATH, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    const query = request.query as Record<string, string | undefined>;
    const usage = await ctx.d.usage.overview(user.account);
    const keys = await ctx.d.keys.list(user.account);
    const lastApi = keys.reduce<{ time: number; prefix: string } | null>((best, k) => (k.key.lastUsedAt !== null && (!best || k.key.lastUsedAt > best.time) ? { time: k.key.lastUsedAt, prefix: k.key.prefix } : best), null);
    const now = ctx.now();
    const days = usage.days;
    const body = html`<h1>Overview</h1>
${query['welcome'] !== undefined && notice('ok', 'Your account is ready.')}
${query['sent'] !== undefined && notice('ok', 'We sent the confirmation link again.')}
${verifyBanner(ctx, user)}
<div class="grid">
<section class="card" aria-labelledby="plan-h"><h2 id="plan-h">Plan</h2>
<dl class="kv">
<dt>Plan</dt><dd id="plan-name">${usage.planName}</dd>
<dt>Daily limit</dt><dd id="plan-limit">${count(usage.limit)} requests (UTC day)</dd>
<dt>Period ends</dt><dd>${at(usage.periodEndsAt)}</dd>
<dt>Renewal</dt><dd>${usage.willRenew ? 'Renews at the end of the period' : 'Does not renew: keys stop working when the period ends'}</dd>
</dl></section>
<section class="card" aria-labelledby="requests-h"><h2 id="requests-h">Requests</h2>
<dl class="kv">
<dt>Today</dt><dd><span id="requests-today">${count(usage.today)}</span> of ${count(usage.limit)}</dd>
<dt>Yesterday</dt><dd id="requests-yesterday">${count(usage.yesterday)}</dd>
<dt>Last 7 days</dt><dd>${count(sum(days, days.length - 7, days.length))}</dd>
<dt>The 7 days before</dt><dd>${count(sum(days, days.length - 14, days.length - 7))}</dd>
</dl>
<meter class="progress" min="0" max="${Math.max(usage.limit, 1)}" value="${Math.min(usage.today, usage.limit)}" aria-label="Requests today against the daily limit">${count(usage.today)} of ${count(usage.limit)}</meter>
</section>
<section class="card" aria-labelledby="access-h"><h2 id="access-h">Access</h2>
<dl class="kv">
<dt>Last API request</dt><dd id="last-api-request">${lastApi ? html`${when(lastApi.time, now)} with key <code>${lastApi.prefix}…</code>` : 'none yet'}</dd>
<dt>This sign-in</dt><dd>${when(user.session.createdAt, now)} from ${user.session.ip}</dd>
<dt>Last dashboard access</dt><dd>${when(user.account.lastLoginAt, now)}</dd>
<dt>Keys in use</dt><dd>${keys.filter((k) => k.state !== 'ended').length} · <a href="${DASHBOARD_PATH}/keys">manage API keys</a></dd>
</dl></section>
</div>
<section aria-labelledby="chart-h"><h2 id="chart-h">Last 30 days</h2>
${usageChart(days, usage.limit)}
<details class="usage-table"><summary>Requests per day as a table</summary>
<div class="table-wrap"><table><caption>Requests per UTC day</caption><thead><tr><th scope="col">Day</th><th scope="col" class="num">Requests</th></tr></thead>
<tbody>${[...days].reverse().map((d) => html`<tr><td>${d.day}</td><td class="num">${count(d.count)}</td></tr>`)}</tbody></table></div>
</details>
</section>`;
    return sendPage(ctx, request, reply, { title: 'Overview', body, user, section: 'overview' });
  });

  app.post(`${DASHBOARD_PATH}/verify/resend`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await ctx.d.registration.resendVerification(user.account);
    return reply.redirect(`${DASHBOARD_PATH}?sent=1`, 303);
  });
}

function verifyBanner(ctx: DashboardContext, user: SignedIn) {
  if (ctx.d.mail === null || user.account.emailVerifiedAt !== null) return null;
  return notice('warn', html`Confirm your email address to make API keys: we sent a link to <strong>${user.account.email}</strong>. ${actionButton(`${DASHBOARD_PATH}/verify/resend`, 'Send the link again', user.csrf, { secondary: true })}`);
}
