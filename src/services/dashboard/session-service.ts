/**
 * Dashboard sessions. A session id is 256 random bits handed to the browser once (the cookie) and stored only as
 * its SHA-256; every sign-in makes a new one (no fixation). A session ends after `idleSeconds` without use or
 * `maxSeconds` after sign-in, when its owner or an administrator ends it, when the password changes or is reset,
 * and when the account is disabled or deleted. Using a session refreshes its last use and the account's
 * `last_login_at` (account_info) at most once a minute. CSRF tokens are HMACs of the session id (session-bound,
 * nothing stored); forms shown before sign-in carry an HMAC of a separate random cookie value instead.
 */
import type { AccountRecord, AccountStore } from '../../core/store/account-store.js';
import type { AuthStore, SessionRecord } from '../../core/store/auth-store.js';
import { isTokenShaped, newToken, tokenHash } from '../accounts/one-time-token.js';
import type { SecretBox } from './secret-box.js';

/** Last-use and last_login_at writes happen at most this often per session. */
export const TOUCH_SECONDS = 60;

export interface ClientInfo {
  readonly ip: string;
  /** Shown in the session list; cut to 200 characters. */
  readonly userAgent: string;
}

export interface ActiveSession {
  readonly session: SessionRecord;
  readonly account: AccountRecord;
}

export interface SessionDeps {
  readonly accounts: AccountStore;
  readonly auth: AuthStore;
  readonly box: SecretBox;
  readonly idleSeconds: number;
  readonly maxSeconds: number;
  /** UNIX seconds. */
  readonly now: () => number;
}

export class SessionService {
  constructor(private readonly deps: SessionDeps) {}

  get idleSeconds(): number {
    return this.deps.idleSeconds;
  }

  /** A session's absolute lifetime (the cookie lives as long). */
  get maxSeconds(): number {
    return this.deps.maxSeconds;
  }

  /** Signs the account in: a fresh session (its id is returned once) and last_login_at = now. */
  async start(account: AccountRecord, client: ClientInfo): Promise<{ token: string; active: ActiveSession }> {
    const now = this.deps.now();
    const { token, hash } = newToken();
    const session = await this.deps.auth.createSession({
      tokenHash: hash, accountId: account.id, createdAt: now, expiresAt: now + this.deps.maxSeconds, ip: client.ip.slice(0, 64), userAgent: client.userAgent.slice(0, 200),
    });
    const updated = (await this.deps.accounts.updateAccount(account.id, { lastLoginAt: now })) ?? account;
    return { token, active: { session, account: updated } };
  }

  /**
   * The signed-in account of a cookie value, or null (absent, unknown, ended, or the account disabled or gone).
   * A dashboard visit: refreshes the session's last use and last_login_at (at most once a minute).
   */
  async resume(token: string | undefined): Promise<ActiveSession | null> {
    const found = await this.peek(token);
    if (!found) return null;
    const now = this.deps.now();
    const { session } = found;
    let { account } = found;
    if (now - session.lastSeenAt >= TOUCH_SECONDS) await this.deps.auth.touchSession(session.id, now);
    if (now - (account.lastLoginAt ?? 0) >= TOUCH_SECONDS) account = (await this.deps.accounts.updateAccount(account.id, { lastLoginAt: now })) ?? account;
    return { session, account };
  }

  /** Like resume without counting as a visit (the explorer's header asks who is signed in). */
  async peek(token: string | undefined): Promise<ActiveSession | null> {
    if (!isTokenShaped(token)) return null;
    const now = this.deps.now();
    const session = await this.deps.auth.findSession(tokenHash(token));
    if (!session) return null;
    if (now >= session.expiresAt || now - session.lastSeenAt >= this.deps.idleSeconds) {
      await this.deps.auth.deleteSession(session.accountId, session.id);
      return null;
    }
    const account = await this.deps.accounts.getAccount(session.accountId);
    return account && account.disabledAt === null ? { session, account } : null;
  }

  list(accountId: number): Promise<SessionRecord[]> {
    return this.deps.auth.listSessions(accountId);
  }

  /** Ends one of the account's sessions (false when it has no such session). */
  end(accountId: number, sessionId: number): Promise<boolean> {
    return this.deps.auth.deleteSession(accountId, sessionId);
  }

  /** Ends every session of the account but `keepId` (all when absent). */
  endAll(accountId: number, keepId?: number): Promise<number> {
    return this.deps.auth.deleteSessions(accountId, keepId);
  }

  /** The CSRF token of a signed-in user's forms. */
  csrfToken(sessionToken: string): string {
    return this.deps.box.tag('csrf', sessionToken);
  }

  checkCsrf(sessionToken: string, given: unknown): boolean {
    return typeof given === 'string' && this.deps.box.verifyTag('csrf', sessionToken, given);
  }

  /** For forms before sign-in: a random value for the `outpoint_csrf` cookie and the token its forms carry. */
  preSessionToken(cookie?: string): { cookie: string; token: string } {
    const value = isTokenShaped(cookie) ? cookie : newToken().token;
    return { cookie: value, token: this.deps.box.tag('pre-session csrf', value) };
  }

  checkPreSession(cookie: unknown, given: unknown): boolean {
    return isTokenShaped(cookie) && typeof given === 'string' && this.deps.box.verifyTag('pre-session csrf', cookie, given);
  }
}
