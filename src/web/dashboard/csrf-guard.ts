/**
 * Cross-site request forgery: every change is a POST, and every POST under /dashboard must come from this site
 * (Sec-Fetch-Site same-origin, or an Origin equal to the public URL's or the request's own host) AND carry a
 * token: a signed-in user's forms an HMAC of the session id, the forms before sign-in (route config
 * `csrf: 'pre-session'`) an HMAC of the outpoint_csrf cookie. A refused POST gets a 403 page, never a redirect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseUrlOrNull } from '../../core/infrastructure/safe-parse.js';
import { type DashboardContext, formField } from './dashboard-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which CSRF token a dashboard POST needs; default the signed-in session's. */
    csrf?: 'session' | 'pre-session';
  }
}

/** Whether the request's Origin / Sec-Fetch-Site say it was sent by a page of this site. */
export function fromThisSite(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  // 'none': the user's own navigation (typed, bookmarked), which another site cannot cause.
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === new URL(publicUrl).origin) return true;
  const url = parseUrlOrNull(origin);
  return url !== null && url.host === request.headers.host;
}

export function installCsrfGuard(app: FastifyInstance, ctx: DashboardContext): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    if (!fromThisSite(request, ctx.publicUrl) || !tokenMatches(ctx, request)) await refuse(ctx, request, reply);
  });
}

function tokenMatches(ctx: DashboardContext, request: FastifyRequest): boolean {
  const given = formField(request, 'csrf');
  if (request.routeOptions.config.csrf === 'pre-session') return ctx.d.sessions.checkPreSession(ctx.cookies.read(request, 'csrf'), given);
  const session = ctx.cookies.read(request, 'session');
  return session !== undefined && ctx.d.sessions.checkCsrf(session, given);
}

function refuse(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return ctx.shell.errorPage(request, reply, 403, 'Form refused',
    'This form was sent from another site, or the page it came from has expired. Nothing was changed. Go back, reload the page and try again.');
}

/** The token for a form shown before sign-in; sets the outpoint_csrf cookie when the visitor has none yet. */
export function preSessionToken(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = ctx.cookies.read(request, 'csrf');
  const { cookie, token } = ctx.d.sessions.preSessionToken(existing);
  if (cookie !== existing) ctx.cookies.set(reply, 'csrf', cookie, 86_400);
  return token;
}
