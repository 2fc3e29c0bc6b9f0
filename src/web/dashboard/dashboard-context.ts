/** What every dashboard route file gets: the shell, the services, the cookie jar and per-request helpers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { DashboardServices } from '../../services/dashboard/create-dashboard-services.js';
import { DASHBOARD_PAGES } from '../../services/accounts/dashboard-links.js';
import type { ActiveSession, ClientInfo } from '../../services/dashboard/session-service.js';
import type { WebShell } from '../shell/web-shell.js';
import { withQuery } from '../shell/html.js';
import type { CookieJar } from './cookies.js';

export interface DashboardContext {
  readonly shell: WebShell;
  readonly d: DashboardServices;
  readonly cookies: CookieJar;
  /** [http] public_url: its origin is the one forms may come from; curl examples point at it. */
  readonly publicUrl: string;
  readonly logger: Logger;
  /** UNIX seconds. */
  readonly now: () => number;
}

/** A signed-in request: the session, its account, and the token its forms carry. */
export interface SignedIn extends ActiveSession {
  readonly csrf: string;
}

const resumed = new WeakMap<FastifyRequest, Promise<SignedIn | null>>();

/** The request's signed-in user (a dashboard visit: refreshes last use), looked up once per request. */
export function signedIn(ctx: DashboardContext, request: FastifyRequest): Promise<SignedIn | null> {
  let found = resumed.get(request);
  if (!found) {
    const token = ctx.cookies.read(request, 'session');
    found = ctx.d.sessions.resume(token).then((active) => (active && token ? { ...active, csrf: ctx.d.sessions.csrfToken(token) } : null));
    resumed.set(request, found);
  }
  return found;
}

/** The signed-in user, or null after answering with a redirect to the sign-in page (which returns here). */
export async function requireUser(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> {
  const user = await signedIn(ctx, request);
  if (user) return user;
  const next = request.method === 'GET' ? request.url : DASHBOARD_PAGES.overview;
  await reply.redirect(withQuery(DASHBOARD_PAGES.signIn, { next: next === DASHBOARD_PAGES.overview ? undefined : next }), 303);
  return null;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : '' };
}

/** A form field of the parsed urlencoded body (absent or repeated fields read as ''). */
export function formField(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}
