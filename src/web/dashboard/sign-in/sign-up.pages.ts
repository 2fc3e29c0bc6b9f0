/**
 * Sign up (open registration, or an invite link) and the email verification link. A new account is signed in at
 * once; with mail configured its overview asks to confirm the address before keys can be made.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_PAGES, DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import { PASSWORD_MIN } from '../../../services/dashboard/password-policy.js';
import { html } from '../../shell/html.js';
import { csrfField, field, notice } from '../forms.js';
import { preSessionToken } from '../csrf-guard.js';
import { clientInfo, formField, signedIn, type DashboardContext } from '../dashboard-context.js';
import { sendPage } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { takeLinkCode } from './link-codes.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';

const DAY = 86_400;

export function signUpPages(app: FastifyInstance, ctx: DashboardContext): void {
  const signUpForm = async (request: FastifyRequest, reply: FastifyReply, options: { email?: string; error?: FormError } = {}) => {
    const inviteCode = ctx.cookies.read(request, 'invite');
    const { invite, open } = await ctx.d.registration.offer(inviteCode);
    if (!invite && !open) {
      const why = inviteCode !== undefined
        ? 'This invite link was used, revoked or has expired. Ask whoever sent it for a new one.'
        : ctx.d.registration.mode === 'invite'
          ? 'Accounts on this service are by invitation. Ask its operator for an invite link.'
          : 'Sign-up is closed on this service. Ask its operator for an account.';
      return sendPage(ctx, request, reply, { title: 'Sign up', status: inviteCode !== undefined ? 410 : 403, body: html`<div class="narrow"><h1>Sign up</h1>${notice('warn', why)}<p><a href="${DASHBOARD_PAGES.signIn}">Sign in</a> if you have an account.</p></div>` });
    }
    const body = html`<div class="narrow">
<h1>Create an account</h1>
${options.error && notice('bad', options.error.message)}
${invite && notice('ok', html`You were invited to the <strong>${invite.plan}</strong> plan${invite.isAdmin ? ' as an administrator' : ''}.`)}
<form method="post" action="${DASHBOARD_PAGES.signUp}" class="stack">
${csrfField(preSessionToken(ctx, request, reply))}
${field('signup', { label: 'Email address', name: 'email', type: 'email', autocomplete: 'email', ...(options.email !== undefined ? { value: options.email } : {}) })}
${field('signup', { label: 'Password', name: 'password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters. A few unrelated words make a strong one.` })}
<button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="${DASHBOARD_PAGES.signIn}">Sign in</a>.</p>
</div>`;
    return sendPage(ctx, request, reply, { title: 'Sign up', body, status: options.error?.status ?? 200 });
  };

  app.withTypeProvider<SchemaTyped>().get(DASHBOARD_PAGES.signUp, { schema: pageQuery('invite') }, async (request, reply) => {
    if (await takeLinkCode(ctx, request, reply, request.query.invite, 'invite', DAY)) return reply;
    if (await signedIn(ctx, request)) return reply.redirect(DASHBOARD_PATH, 303);
    return signUpForm(request, reply);
  });

  app.post(DASHBOARD_PAGES.signUp, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    const email = formField(request, 'email');
    await handleForm(
      reply,
      async () => {
        const { token } = await ctx.d.registration.signUp({ email, password: formField(request, 'password'), invite: ctx.cookies.read(request, 'invite') }, clientInfo(request));
        ctx.cookies.clear(reply, 'invite');
        ctx.cookies.set(reply, 'session', token, ctx.d.sessions.maxSeconds);
        return reply.redirect(`${DASHBOARD_PATH}?welcome=1`, 303);
      },
      (error) => signUpForm(request, reply, { email, error }),
    );
    return reply;
  });

  const verifyPage = async (request: FastifyRequest, reply: FastifyReply, error?: FormError) => {
    const body = html`<div class="narrow">
<h1>Confirm your email address</h1>
${error && notice('bad', error.message)}
${ctx.cookies.read(request, 'verify') === undefined
  ? notice('warn', html`This page needs the link from the confirmation mail. <a href="${DASHBOARD_PATH}">Go to your dashboard</a> to send a new one.`)
  : html`<form method="post" action="${DASHBOARD_PAGES.verify}">${csrfField(preSessionToken(ctx, request, reply))}<button type="submit">Confirm my address</button></form>`}
</div>`;
    return sendPage(ctx, request, reply, { title: 'Confirm your email address', body, status: error?.status ?? 200 });
  };

  app.withTypeProvider<SchemaTyped>().get(DASHBOARD_PAGES.verify, { schema: pageQuery('token') }, async (request, reply) => {
    if (await takeLinkCode(ctx, request, reply, request.query.token, 'verify', 2 * DAY)) return reply;
    return verifyPage(request, reply);
  });

  // A button, not the link itself, confirms: mail scanners that open links must not use them up.
  app.post(DASHBOARD_PAGES.verify, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    await handleForm(
      reply,
      async () => {
        const account = await ctx.d.registration.verify(ctx.cookies.read(request, 'verify'));
        ctx.cookies.clear(reply, 'verify');
        const body = html`<div class="narrow"><h1>Address confirmed</h1>${notice('ok', html`<strong>${account.email}</strong> is confirmed. You can make API keys now.`)}<p><a class="button" href="${DASHBOARD_PATH}/keys">Go to your API keys</a></p></div>`;
        return sendPage(ctx, request, reply, { title: 'Address confirmed', body });
      },
      (error) => verifyPage(request, reply, error),
    );
    return reply;
  });
}
