/**
 * Signing in: email and password, then (when the account has one) the second factor. Limits are checked before
 * any hashing and failures counted per client network and per email — the same for unknown emails, with the same
 * message — so the answers never tell whether an account exists. A second-factor step is a one-time token (5
 * minutes) in its own cookie: no session exists until both factors passed, and then a new one is made.
 */
import type { AccountRecord } from '../../core/store/account-store.js';
import { InvalidCredentialsError } from '../../core/domain/errors.js';
import { emailSubject, ipSubject, type Limited } from '../limits/attempt-limiter.js';
import type { AuthContext } from './auth-context.js';
import { isTokenShaped, newToken, tokenHash } from '../accounts/one-time-token.js';
import type { ActiveSession, ClientInfo } from './session-service.js';

export const SECOND_FACTOR_SECONDS = 300;

export type SignInResult =
  | { readonly kind: 'signed-in'; readonly token: string; readonly active: ActiveSession }
  | { readonly kind: 'second-factor'; readonly pending: string };

export class SignInService {
  constructor(private readonly ctx: AuthContext) {}

  async signIn(email: string, password: string, client: ClientInfo): Promise<SignInResult> {
    const limits = this.limits(email, client);
    await this.ctx.limiter.check(limits);
    const account = await this.ctx.store.findAccountByEmail(email.trim());
    const credentials = account ? await this.ctx.auth.getCredentials(account.id) : null;
    const check = await this.ctx.hasher.verify(password, credentials?.passwordHash ?? null);
    if (!account || !check.ok) {
      await this.ctx.limiter.record(limits);
      throw new InvalidCredentialsError();
    }
    if (check.needsRehash) await this.ctx.auth.setPasswordHash(account.id, await this.ctx.hasher.hash(password));
    if (account.disabledAt !== null) throw new InvalidCredentialsError('This account is disabled. Ask the operator of this service.');
    await this.ctx.limiter.clear(limits[1]!);
    if (!account.totpEnabled) return { kind: 'signed-in', ...(await this.ctx.sessions.start(account, client)) };
    const now = this.ctx.now();
    const { token, hash } = newToken();
    await this.ctx.auth.createToken({ tokenHash: hash, purpose: 'second_factor', accountId: account.id, email: null, createdAt: now, expiresAt: now + SECOND_FACTOR_SECONDS });
    return { kind: 'second-factor', pending: token };
  }

  /** Whether a second-factor step is still open (its page is shown, or the user starts over). */
  async pendingValid(pending: unknown): Promise<boolean> {
    return isTokenShaped(pending) && (await this.ctx.auth.findToken(tokenHash(pending), 'second_factor', this.ctx.now())) !== null;
  }

  /** Completes a sign-in with a TOTP code or a recovery code. */
  async secondFactor(pending: unknown, code: string, client: ClientInfo): Promise<{ token: string; active: ActiveSession }> {
    const expired = new InvalidCredentialsError('This sign-in expired. Sign in again.');
    if (!isTokenShaped(pending)) throw expired;
    const step = await this.ctx.auth.findToken(tokenHash(pending), 'second_factor', this.ctx.now());
    const account = step ? await this.ctx.store.getAccount(step.accountId) : null;
    if (!step || !account) throw expired;
    const limits = this.limits(account.email, client);
    await this.ctx.limiter.check(limits);
    if (!(await this.ctx.totp.check(account.id, code))) {
      await this.ctx.limiter.record(limits);
      throw new InvalidCredentialsError('That code is wrong or was already used.');
    }
    if (!(await this.ctx.auth.consumeToken(tokenHash(pending), 'second_factor', this.ctx.now()))) throw expired;
    if (account.disabledAt !== null) throw new InvalidCredentialsError('This account is disabled. Ask the operator of this service.');
    await this.ctx.limiter.clear(limits[1]!);
    return this.ctx.sessions.start(account, client);
  }

  /** A signed-in user confirms a sensitive change with the password; failures count like failed sign-ins. */
  async confirmPassword(account: AccountRecord, password: string, client: ClientInfo): Promise<void> {
    const limits = this.limits(account.email, client);
    await this.ctx.limiter.check(limits);
    const credentials = await this.ctx.auth.getCredentials(account.id);
    if (!(await this.ctx.hasher.verify(password, credentials?.passwordHash ?? null)).ok) {
      await this.ctx.limiter.record(limits);
      throw new InvalidCredentialsError('Your current password is wrong.');
    }
  }

  private limits(email: string, client: ClientInfo): Limited[] {
    return [[this.ctx.limits.signinIp, ipSubject(client.ip)], [this.ctx.limits.signinAccount, emailSubject(email)]];
  }
}
