/**
 * The dashboard's cookies: all HttpOnly and SameSite=Lax on path /. When the public URL is https they are also
 * Secure and named with the `__Host-` prefix (the browser then refuses them from any other host or path, so a
 * sibling subdomain cannot plant one). Their values are random tokens; none is readable by page scripts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Base names; `__Host-` is prepended on https. */
export const COOKIES = {
  session: 'outpoint_session',
  /** The token the forms shown before sign-in carry an HMAC of. */
  csrf: 'outpoint_csrf',
  /** A sign-in waiting for its second factor (5 minutes). */
  secondFactor: 'outpoint_2fa',
  /** One-time link codes moved out of the URL on arrival, so they never sit in the address bar, history or logs. */
  invite: 'outpoint_invite',
  reset: 'outpoint_reset',
  verify: 'outpoint_verify',
} as const;

export type CookieName = keyof typeof COOKIES;

export class CookieJar {
  private readonly prefix: string;
  private readonly attributes: string;

  constructor(publicUrl: string) {
    const secure = publicUrl.startsWith('https:');
    this.prefix = secure ? '__Host-' : '';
    this.attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  }

  name(cookie: CookieName): string {
    return this.prefix + COOKIES[cookie];
  }

  read(request: FastifyRequest, cookie: CookieName): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const wanted = this.name(cookie);
    for (const part of header.split(';')) {
      const at = part.indexOf('=');
      if (at > 0 && part.slice(0, at).trim() === wanted) return part.slice(at + 1).trim();
    }
    return undefined;
  }

  /** Sets a cookie for `maxAgeSeconds` (tokens only: base64url text needs no encoding). */
  set(reply: FastifyReply, cookie: CookieName, value: string, maxAgeSeconds: number): void {
    this.append(reply, `${this.name(cookie)}=${value}; Max-Age=${Math.max(1, Math.floor(maxAgeSeconds))}; ${this.attributes}`);
  }

  clear(reply: FastifyReply, cookie: CookieName): void {
    this.append(reply, `${this.name(cookie)}=; Max-Age=0; ${this.attributes}`);
  }

  private append(reply: FastifyReply, value: string): void {
    const existing = reply.getHeader('set-cookie');
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
    reply.header('set-cookie', [...list, value]);
  }
}
