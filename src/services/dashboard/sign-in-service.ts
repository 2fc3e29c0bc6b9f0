/**
 * Signing in: email and password, then (when the account has one) the second factor. Limits are checked before
 * any hashing (the same for unknown emails, with the same message, so the answers never tell whether an account
 * exists), per client network and per email:
 * - every password check (right or wrong) counts as an attempt: a client cannot keep the hash slots busy even
 *   with a correct password, and it holds at most one hash at a time (PasswordHasher);
 * - every wrong password or second-factor code counts as a failure. The email's failures are lifted only when a
 *   sign-in is complete (both factors) or by a password reset, so knowing the password buys no fresh code guesses;
 * - a second-factor step (a one-time token, 5 minutes, in its own cookie; no session exists until both factors
 *   passed) takes at most CODES_PER_SIGN_IN codes, then ends.
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

const WRONG_CODE = 'That code is wrong or was already used.';

export class SignInService {
  constructor(private readonly ctx: AuthContext) {}

  async signIn(email: string, password: string, client: ClientInfo): Promise<SignInResult> {
    const account = await this.checkPassword(email, password, client, new InvalidCredentialsError());
    if (account.disabledAt !== null) throw new InvalidCredentialsError('This account is disabled. Ask the operator of this service.');
    if (!account.totpEnabled) return { kind: 'signed-in', ...(await this.complete(account, client)) };
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
    const hash = tokenHash(pending);
    const step = await this.ctx.auth.findToken(hash, 'second_factor', this.ctx.now());
    const account = step ? await this.ctx.store.getAccount(step.accountId) : null;
    if (!step || !account) throw expired;
    await this.ctx.limiter.check(this.failures(account.email, client));
    // Counted before the code is looked at, so codes sent at once cannot slip past the step's allowance.
    const tried = await this.ctx.limiter.add([this.ctx.limits.pendingCodes, `step:${Buffer.from(hash).toString('hex')}`]);
    const last = tried >= this.ctx.limits.pendingCodes.max;
    if (tried > this.ctx.limits.pendingCodes.max || !(await this.codeMatches(account, code, client))) {
      if (!last) throw new InvalidCredentialsError(WRONG_CODE);
      // The step's last code was wrong: it ends, and only the password step opens another.
      await this.ctx.auth.consumeToken(hash, 'second_factor', this.ctx.now());
      throw expired;
    }
    if (!(await this.ctx.auth.consumeToken(hash, 'second_factor', this.ctx.now()))) throw expired;
    if (account.disabledAt !== null) throw new InvalidCredentialsError('This account is disabled. Ask the operator of this service.');
    return this.complete(account, client);
  }

  /** A signed-in user confirms a sensitive change with the password; it counts like a sign-in attempt. */
  async confirmPassword(account: AccountRecord, password: string, client: ClientInfo): Promise<void> {
    const wrong = new InvalidCredentialsError('Your current password is wrong.');
    const found = await this.checkPassword(account.email, password, client, wrong);
    if (found.id !== account.id) throw wrong;
  }

  /**
   * The password, and a current code (TOTP or recovery) when the account has a second factor: for changes to the
   * second factor itself. A wrong code counts as a failed sign-in.
   */
  async confirmPasswordAndCode(account: AccountRecord, password: string, code: string, client: ClientInfo): Promise<void> {
    await this.confirmPassword(account, password, client);
    if (account.totpEnabled && !(await this.codeMatches(account, code, client))) throw new InvalidCredentialsError(WRONG_CODE);
  }

  /** Checks the limits, counts the attempt, hashes (one hash at a time per client), counts a failure and throws `wrong`. */
  private async checkPassword(email: string, password: string, client: ClientInfo, wrong: InvalidCredentialsError): Promise<AccountRecord> {
    const failures = this.failures(email, client);
    const attempts = this.attempts(email, client);
    await this.ctx.limiter.check([...failures, ...attempts]);
    await this.ctx.limiter.record(attempts);
    const account = await this.ctx.store.findAccountByEmail(email.trim());
    const credentials = account ? await this.ctx.auth.getCredentials(account.id) : null;
    const who = ipSubject(client.ip);
    const check = await this.ctx.hasher.verify(password, credentials?.passwordHash ?? null, who);
    if (!account || !check.ok) {
      await this.ctx.limiter.record(failures);
      throw wrong;
    }
    if (check.needsRehash) await this.ctx.auth.setPasswordHash(account.id, await this.ctx.hasher.hash(password, who));
    return account;
  }

  private async codeMatches(account: AccountRecord, code: string, client: ClientInfo): Promise<boolean> {
    if (await this.ctx.totp.check(account.id, code)) return true;
    await this.ctx.limiter.record(this.failures(account.email, client));
    return false;
  }

  /** Both factors passed: the email's failures are lifted and a session starts. */
  private async complete(account: AccountRecord, client: ClientInfo): Promise<{ token: string; active: ActiveSession }> {
    await this.ctx.limiter.clear([this.ctx.limits.signinAccount, emailSubject(account.email)]);
    return this.ctx.sessions.start(account, client);
  }

  private failures(email: string, client: ClientInfo): Limited[] {
    return [[this.ctx.limits.signinIp, ipSubject(client.ip)], [this.ctx.limits.signinAccount, emailSubject(email)]];
  }

  private attempts(email: string, client: ClientInfo): Limited[] {
    return [[this.ctx.limits.attemptsIp, ipSubject(client.ip)], [this.ctx.limits.attemptsAccount, emailSubject(email)]];
  }
}
