/**
 * Forgotten passwords: "forgot password" mails a reset link (always the same answer, whether the address has an
 * account or not); without mail it says to ask the operator, who makes the link. The reset page sets a new
 * password through the link; every session of the account ends, and the user signs in again.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESET_MINUTES } from '../../../services/accounts/account-mail.js';
import { DASHBOARD_PAGES, DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import { PASSWORD_MIN } from '../../../services/dashboard/password-policy.js';
import { html } from '../../shell/html.js';
import { csrfField, field, notice } from '../forms.js';
import { preSessionToken } from '../csrf-guard.js';
import { clientInfo, formField, type DashboardContext } from '../dashboard-context.js';
import { sendPage } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { takeLinkCode } from './link-codes.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';

const FORGOT = `${DASHBOARD_PATH}/forgot`;

export function recoveryPages(app: FastifyInstance, ctx: DashboardContext): void {
  const forgotPage = (request: FastifyRequest, reply: FastifyReply, options: { sent?: boolean; error?: FormError } = {}) => {
    const body = !ctx.d.passwords.canMail
      ? html`<div class="narrow"><h1>Forgot your password?</h1>${notice('warn', 'This service sends no mail. Ask its operator for a password reset link.')}<p><a href="${DASHBOARD_PAGES.signIn}">Back to sign in</a></p></div>`
      : html`<div class="narrow">
<h1>Forgot your password?</h1>
${options.error ? notice('bad', options.error.message) : options.sent && notice('ok', `If an account exists for that address, we sent it a link to choose a new password. The link works for ${RESET_MINUTES} minutes.`)}
<form method="post" action="${FORGOT}" class="stack">
${csrfField(preSessionToken(ctx, request, reply))}
${field('forgot', { label: 'Email address', name: 'email', type: 'email', autocomplete: 'email' })}
<button type="submit">Send me a link</button>
</form>
<p><a href="${DASHBOARD_PAGES.signIn}">Back to sign in</a></p>
</div>`;
    return sendPage(ctx, request, reply, { title: 'Forgot your password?', body, status: options.error?.status ?? 200 });
  };

  app.get(FORGOT, (request, reply) => forgotPage(request, reply));

  app.post(FORGOT, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    await handleForm(
      reply,
      async () => {
        await ctx.d.passwords.requestReset(formField(request, 'email'), clientInfo(request));
        return forgotPage(request, reply, { sent: true });
      },
      (error) => forgotPage(request, reply, { error }),
    );
    return reply;
  });

  const resetPage = async (request: FastifyRequest, reply: FastifyReply, error?: FormError) => {
    const valid = await ctx.d.passwords.resetTokenValid(ctx.cookies.read(request, 'reset'));
    const body = !valid
      ? html`<div class="narrow"><h1>Choose a new password</h1>${notice('warn', 'This reset link was used already or has expired.')}<p>${ctx.d.passwords.canMail ? html`<a href="${FORGOT}">Ask for a new link</a>` : 'Ask the operator of this service for a new link.'}</p></div>`
      : html`<div class="narrow">
<h1>Choose a new password</h1>
${error && notice('bad', error.message)}
<form method="post" action="${DASHBOARD_PAGES.reset}" class="stack">
${csrfField(preSessionToken(ctx, request, reply))}
${field('reset', { label: 'New password', name: 'password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters. Every signed-in browser will be signed out.` })}
<button type="submit">Set password</button>
</form>
</div>`;
    return sendPage(ctx, request, reply, { title: 'Choose a new password', body, status: error?.status ?? (valid ? 200 : 410) });
  };

  app.withTypeProvider<SchemaTyped>().get(DASHBOARD_PAGES.reset, { schema: pageQuery('token') }, async (request, reply) => {
    if (await takeLinkCode(ctx, request, reply, request.query.token, 'reset', RESET_MINUTES * 60)) return reply;
    return resetPage(request, reply);
  });

  app.post(DASHBOARD_PAGES.reset, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    await handleForm(
      reply,
      async () => {
        await ctx.d.passwords.resetPassword(ctx.cookies.read(request, 'reset'), formField(request, 'password'), clientInfo(request));
        ctx.cookies.clear(reply, 'reset');
        ctx.cookies.clear(reply, 'session');
        return reply.redirect(`${DASHBOARD_PAGES.signIn}?reset=1`, 303);
      },
      (error) => resetPage(request, reply, error),
    );
    return reply;
  });
}
