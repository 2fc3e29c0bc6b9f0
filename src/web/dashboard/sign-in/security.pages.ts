/**
 * Security: change password (other sessions end), change email (confirmed again when mail is on), the list of
 * signed-in sessions with sign-out of each or all others, the second factor (its own file), and account deletion.
 * Every change asks for the current password (changes to the second factor also a current code).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_PAGES, DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import { PASSWORD_MIN } from '../../../services/dashboard/password-policy.js';
import { html } from '../../shell/html.js';
import { dataTable } from '../../shell/data-table.js';
import { actionButton, csrfField, field, notice } from '../forms.js';
import { clientInfo, formField, requireUser, type DashboardContext, type SignedIn } from '../dashboard-context.js';
import { sendPage, when } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { codesPage, enrolPage, secondFactorSection } from './second-factor.pages.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';

export const SECURITY = `${DASHBOARD_PATH}/security`;

/** Messages after a redirect back to the page (a fixed set). */
const DONE: Readonly<Record<string, string>> = {
  password: 'Your password was changed. Every other session was signed out.',
  email: 'Your email address was changed.',
  ended: 'The session was signed out.',
  others: 'Every other session was signed out.',
  'totp-off': 'The second factor is off.',
};

export function securityPages(app: FastifyInstance, ctx: DashboardContext): void {
  /** `doneAction`: the action the page was redirected back from (its `?done=`). */
  const page = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn, error?: FormError & { form: string }, doneAction?: string) => {
    const now = ctx.now();
    const done = Object.keys(DONE).find((k) => doneAction === k);
    const errorIn = (form: string) => error?.form === form && notice('bad', error.message);
    const sessions = await ctx.d.sessions.list(user.account.id);
    const body = html`<h1>Security</h1>
${done && notice('ok', DONE[done]!)}
<div class="cols-2">
<section class="card" aria-labelledby="password-h"><h2 id="password-h">Password</h2>
${errorIn('password')}
<form method="post" action="${SECURITY}/password" class="stack">${csrfField(user.csrf)}
<input type="text" name="username" value="${user.account.email}" autocomplete="username" hidden>
${field('pw', { label: 'Current password', name: 'current', type: 'password', autocomplete: 'current-password' })}
${field('pw', { label: 'New password', name: 'password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters.` })}
<button type="submit">Change password</button></form></section>
<section class="card" aria-labelledby="email-h"><h2 id="email-h">Email address</h2>
${errorIn('email')}
<p>Now: <strong id="current-email">${user.account.email}</strong> ${user.account.emailVerifiedAt !== null ? html`<span class="badge ok">confirmed</span>` : html`<span class="badge warn">not confirmed</span>`}</p>
<form method="post" action="${SECURITY}/email" class="stack">${csrfField(user.csrf)}
${field('email', { label: 'New email address', name: 'email', type: 'email', autocomplete: 'email' })}
${field('email', { label: 'Current password', name: 'current', type: 'password', autocomplete: 'current-password' })}
<button type="submit">Change email</button></form></section>
</div>
<section aria-labelledby="sessions-h"><h2 id="sessions-h">Signed-in sessions</h2>
${dataTable({ label: 'Signed-in sessions', caption: 'Browsers signed in to this account', id: 'sessions', head: html`<tr><th scope="col">Browser</th><th scope="col">IP address</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>`, rows: sessions.map((s) => html`<tr data-session="${s.id}">
<td>${s.userAgent || 'unknown'}</td><td>${s.ip}</td><td>${when(s.createdAt, now)}</td><td>${when(s.lastSeenAt, now)}</td>
<td>${s.id === user.session.id ? html`<span class="badge ok">this browser</span>` : actionButton(`${SECURITY}/sessions/${s.id}/end`, 'Sign out', user.csrf, { secondary: true })}</td>
</tr>`) })}
${sessions.length > 1 && actionButton(`${SECURITY}/sessions/end-others`, 'Sign out every other session', user.csrf, { secondary: true })}
</section>
${await secondFactorSection(ctx, user, error?.form === 'totp' ? error : undefined)}
<section class="card danger-zone" aria-labelledby="delete-h"><h2 id="delete-h">Delete the account</h2>
${errorIn('delete')}
<p>Deletes the account, its keys (they stop working at once) and its usage history. This cannot be undone.</p>
<form method="post" action="${SECURITY}/delete" class="stack">${csrfField(user.csrf)}
${field('delete', { label: 'Current password', name: 'current', type: 'password', autocomplete: 'current-password' })}
<button type="submit" class="danger">Delete my account</button></form></section>`;
    return sendPage(ctx, request, reply, { title: 'Security', body, user, section: 'security', status: error?.status ?? 200 });
  };

  app.withTypeProvider<SchemaTyped>().get(SECURITY, { schema: pageQuery('done') }, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    return user ? page(request, reply, user, undefined, request.query.done) : reply;
  });

  /** A POST whose action redirects back with a message, or re-renders the page with the error by its form. */
  const change = (path: string, form: string, action: (request: FastifyRequest, reply: FastifyReply, user: SignedIn) => Promise<unknown>) =>
    app.post(`${SECURITY}${path}`, async (request, reply) => {
      const user = await requireUser(ctx, request, reply);
      if (!user) return reply;
      await handleForm(reply, () => action(request, reply, user), (error) => page(request, reply, user, { ...error, form }));
      return reply;
    });

  change('/password', 'password', async (request, reply, user) => {
    await ctx.d.passwords.changePassword(user.account, user.session.id, formField(request, 'current'), formField(request, 'password'), clientInfo(request));
    return reply.redirect(`${SECURITY}?done=password`, 303);
  });
  change('/email', 'email', async (request, reply, user) => {
    await ctx.d.settings.changeEmail(user.account, formField(request, 'current'), formField(request, 'email'), clientInfo(request));
    return reply.redirect(`${SECURITY}?done=email`, 303);
  });
  change('/delete', 'delete', async (request, reply, user) => {
    await ctx.d.settings.deleteAccount(user.account, formField(request, 'current'), clientInfo(request));
    ctx.cookies.clear(reply, 'session');
    return reply.redirect(`${DASHBOARD_PAGES.signIn}?deleted=1`, 303);
  });
  change('/sessions/end-others', 'sessions', async (_request, reply, user) => {
    await ctx.d.sessions.endAll(user.account.id, user.session.id);
    return reply.redirect(`${SECURITY}?done=others`, 303);
  });
  change('/sessions/:id/end', 'sessions', async (request, reply, user) => {
    await ctx.d.sessions.end(user.account.id, Number((request.params as { id: string }).id) || 0);
    return reply.redirect(`${SECURITY}?done=ended`, 303);
  });
  change('/2fa/start', 'totp', async (request, reply, user) => {
    if (user.account.totpEnabled) return reply.redirect(SECURITY, 303);
    return enrolPage(ctx, request, reply, user, await ctx.d.settings.beginSecondFactor(user.account, formField(request, 'current'), clientInfo(request)));
  });
  change('/2fa/recovery-codes', 'totp', async (request, reply, user) => {
    if (!user.account.totpEnabled) return reply.redirect(SECURITY, 303);
    const codes = await ctx.d.settings.newRecoveryCodes(user.account, formField(request, 'current'), formField(request, 'code'), clientInfo(request));
    return codesPage(ctx, request, reply, user, codes, false);
  });
  change('/2fa/disable', 'totp', async (request, reply, user) => {
    await ctx.d.settings.disableSecondFactor(user.account, formField(request, 'current'), formField(request, 'code'), clientInfo(request));
    return reply.redirect(`${SECURITY}?done=totp-off`, 303);
  });
}
