/**
 * One-time link codes (invite, reset, verify) arrive in a URL's query. The page that receives one moves it into a
 * short HttpOnly cookie and redirects to the same path without it, so the code never stays in the address bar,
 * the history, a Referer header or a log line; the form on that page then posts with the cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isTokenShaped } from '../../../services/accounts/one-time-token.js';
import type { CookieName } from '../cookies.js';
import type { DashboardContext } from '../dashboard-context.js';

/** True when the request carried the code (`value`, from its query): the cookie is set and the redirect sent. */
export async function takeLinkCode(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, value: string | undefined, cookie: CookieName, maxAgeSeconds: number): Promise<boolean> {
  if (value === undefined) return false;
  if (isTokenShaped(value)) ctx.cookies.set(reply, cookie, value, maxAgeSeconds);
  else ctx.cookies.clear(reply, cookie);
  await reply.redirect(request.url.split('?')[0]!, 303);
  return true;
}
