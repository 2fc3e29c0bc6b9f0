/**
 * The shared header's account links on every page (explorer and dashboard): "Sign in" (and "Sign up" when
 * registration is open) for visitors; "Dashboard" and a sign-out button for a signed-in user. Explorer pages only
 * peek at the session (they are not dashboard visits and do not move last_login_at).
 */
import type { FastifyRequest } from 'fastify';
import { DASHBOARD_PAGES, DASHBOARD_PATH } from '../../services/accounts/dashboard-links.js';
import { html, type SafeHtml } from '../shell/html.js';
import { signedIn, type DashboardContext } from './dashboard-context.js';
import { actionButton } from './forms.js';

export function headerLinks(ctx: DashboardContext) {
  return async (request: FastifyRequest): Promise<SafeHtml> => {
    const token = ctx.cookies.read(request, 'session');
    const path = request.url.split('?')[0]!;
    const onDashboard = path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
    const user = token === undefined ? null : onDashboard ? await signedIn(ctx, request) : await ctx.d.sessions.peek(token);
    if (user && token !== undefined) {
      return html`<nav class="account-links" aria-label="Account"><a href="${DASHBOARD_PATH}"${path === DASHBOARD_PATH && html` aria-current="page"`}>Dashboard</a>
${actionButton(`${DASHBOARD_PATH}/sign-out`, 'Sign out', ctx.d.sessions.csrfToken(token), { secondary: true })}</nav>`;
    }
    return html`<nav class="account-links" aria-label="Account"><a href="${DASHBOARD_PAGES.signIn}">Sign in</a>${ctx.d.registration.mode === 'open' && html` <a href="${DASHBOARD_PAGES.signUp}">Sign up</a>`}</nav>`;
  };
}
