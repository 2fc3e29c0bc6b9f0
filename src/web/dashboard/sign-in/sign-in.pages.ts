/**
 * Sign in (email and password, then the second factor when the account has one), sign out. A successful sign-in
 * always gets a new session cookie; the second-factor step lives in its own short cookie, not in a session.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_PAGES, DASHBOARD_PATH } from '../../../services/accounts/dashboard-links.js';
import { SECOND_FACTOR_SECONDS } from '../../../services/dashboard/sign-in-service.js';
import { html } from '../../shell/html.js';
import { localPath } from '../../shell/theme.js';
import { csrfField, field, notice, type NoticeKind } from '../forms.js';
import { preSessionToken } from '../csrf-guard.js';
import { clientInfo, formField, requireUser, signedIn, type DashboardContext } from '../dashboard-context.js';
import { sendPage } from '../dashboard-page.js';
import { handleForm, type FormError } from '../form-errors.js';
import { pageQuery, type SchemaTyped } from '../page-query.js';

const CODE_PAGE = `${DASHBOARD_PAGES.signIn}/code`;

/** Messages the sign-in page shows after a redirect (a fixed set: nothing from the URL is echoed). */
const ARRIVALS = {
  'signed-out': ['ok', 'You are signed out.'],
  reset: ['ok', 'Your password was changed. Sign in with the new one.'],
  expired: ['warn', 'That sign-in took too long. Please sign in again.'],
  deleted: ['ok', 'Your account was deleted.'],
} as const satisfies Readonly<Record<string, readonly [NoticeKind, string]>>;

/** The sign-in page's query: where it was sent from (one of ARRIVALS) and where to go after. */
const SIGN_IN_QUERY = pageQuery('signed-out', 'reset', 'expired', 'deleted', 'next');

/** Where to go after sign-in: a dashboard path from `next`, else the overview. */
function nextPath(value: unknown): string {
  const path = localPath(value, DASHBOARD_PATH);
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`) || path.startsWith(`${DASHBOARD_PATH}?`) ? path : DASHBOARD_PATH;
}

export function signInPages(app: FastifyInstance, ctx: DashboardContext): void {
  const sessionCookie = (reply: FastifyReply, token: string) => ctx.cookies.set(reply, 'session', token, ctx.d.sessions.maxSeconds);

  /** `arrival`: the notice of the page it was sent from (none after an error). */
  const signInForm = (request: FastifyRequest, reply: FastifyReply, options: { email?: string; next?: string; error?: FormError; arrival?: keyof typeof ARRIVALS } = {}) => {
    const { arrival } = options;
    const body = html`<div class="narrow">
<h1>Sign in</h1>
${options.error ? notice('bad', options.error.message) : arrival && notice(ARRIVALS[arrival]![0], ARRIVALS[arrival]![1])}
<form method="post" action="${DASHBOARD_PAGES.signIn}" class="stack">
${csrfField(preSessionToken(ctx, request, reply))}
<input type="hidden" name="next" value="${nextPath(options.next)}">
${field('signin', { label: 'Email address', name: 'email', type: 'email', autocomplete: 'username', ...(options.email !== undefined ? { value: options.email } : {}) })}
${field('signin', { label: 'Password', name: 'password', type: 'password', autocomplete: 'current-password' })}
<button type="submit">Sign in</button>
</form>
<p><a href="${DASHBOARD_PATH}/forgot">Forgot your password?</a></p>
${ctx.d.registration.mode === 'open' && html`<p>No account yet? <a href="${DASHBOARD_PAGES.signUp}">Create one</a>.</p>`}
</div>`;
    return sendPage(ctx, request, reply, { title: 'Sign in', body, status: options.error?.status ?? 200 });
  };

  app.withTypeProvider<SchemaTyped>().get(DASHBOARD_PAGES.signIn, { schema: SIGN_IN_QUERY }, async (request, reply) => {
    if (await signedIn(ctx, request)) return reply.redirect(DASHBOARD_PATH, 303);
    const { query } = request;
    const arrival = (Object.keys(ARRIVALS) as (keyof typeof ARRIVALS)[]).find((k) => query[k] !== undefined);
    return signInForm(request, reply, { ...(query.next !== undefined ? { next: query.next } : {}), ...(arrival ? { arrival } : {}) });
  });

  app.post(DASHBOARD_PAGES.signIn, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    const email = formField(request, 'email');
    const next = nextPath(formField(request, 'next'));
    await handleForm(
      reply,
      async () => {
        const result = await ctx.d.signIn.signIn(email, formField(request, 'password'), clientInfo(request));
        if (result.kind === 'signed-in') {
          sessionCookie(reply, result.token);
          return reply.redirect(next, 303);
        }
        ctx.cookies.set(reply, 'secondFactor', result.pending, SECOND_FACTOR_SECONDS);
        return reply.redirect(next === DASHBOARD_PATH ? CODE_PAGE : `${CODE_PAGE}?next=${encodeURIComponent(next)}`, 303);
      },
      (error) => signInForm(request, reply, { email, next, error }),
    );
    return reply;
  });

  /** `next`: where to go after (the page's `?next=`, or the posted form's field). */
  const codeForm = (request: FastifyRequest, reply: FastifyReply, next: string | undefined, error?: FormError) => {
    const body = html`<div class="narrow">
<h1>Second factor</h1>
${error && notice('bad', error.message)}
<p>Enter the 6-digit code your authenticator app shows now, or one of your recovery codes.</p>
<form method="post" action="${CODE_PAGE}" class="stack">
${csrfField(preSessionToken(ctx, request, reply))}
<input type="hidden" name="next" value="${nextPath(next)}">
${field('code', { label: 'Code', name: 'code', autocomplete: 'one-time-code', inputmode: 'text', maxlength: 19, hint: '6 digits, or a recovery code like ABCD-EFGH-IJKL-MNOP' })}
<button type="submit">Continue</button>
</form>
<p><a href="${DASHBOARD_PAGES.signIn}">Start over</a></p>
</div>`;
    return sendPage(ctx, request, reply, { title: 'Second factor', body, status: error?.status ?? 200 });
  };

  app.withTypeProvider<SchemaTyped>().get(CODE_PAGE, { schema: pageQuery('next') }, async (request, reply) => {
    if (!(await ctx.d.signIn.pendingValid(ctx.cookies.read(request, 'secondFactor')))) return reply.redirect(`${DASHBOARD_PAGES.signIn}?expired=1`, 303);
    return codeForm(request, reply, request.query.next);
  });

  app.post(CODE_PAGE, { config: { csrf: 'pre-session' } }, async (request, reply) => {
    await handleForm(
      reply,
      async () => {
        const { token } = await ctx.d.signIn.secondFactor(ctx.cookies.read(request, 'secondFactor'), formField(request, 'code'), clientInfo(request));
        ctx.cookies.clear(reply, 'secondFactor');
        sessionCookie(reply, token);
        return reply.redirect(nextPath(formField(request, 'next')), 303);
      },
      async (error) => {
        if (!(await ctx.d.signIn.pendingValid(ctx.cookies.read(request, 'secondFactor')))) return reply.redirect(`${DASHBOARD_PAGES.signIn}?expired=1`, 303);
        return codeForm(request, reply, formField(request, 'next'), error);
      },
    );
    return reply;
  });

  app.post(`${DASHBOARD_PATH}/sign-out`, async (request, reply) => {
    const user = await requireUser(ctx, request, reply);
    if (!user) return reply;
    await ctx.d.sessions.end(user.account.id, user.session.id);
    ctx.cookies.clear(reply, 'session');
    return reply.redirect(`${DASHBOARD_PAGES.signIn}?signed-out=1`, 303);
  });
}
