/**
 * Forgotten and changed passwords. "Forgot password" mails a one-time link (60 minutes) when the address has an
 * account, and answers the same either way (the mail goes out in the background, so timing does not tell
 * either); it is limited per client network and per email. Without mail the operator makes the link (CLI or
 * admin page). Setting a password through a link ends every session of the account and every other reset link,
 * and lifts the account's sign-in limit (the owner proved control of the mailbox); it does not sign in, so a
 * second factor is still asked for at the next sign-in.
 */
import { InvalidArgumentError, InvalidCredentialsError } from '../../core/domain/errors.js';
import type { AccountRecord } from '../../core/store/account-store.js';
import { RESET_MINUTES } from '../accounts/account-mail.js';
import { emailSubject, ipSubject } from '../limits/attempt-limiter.js';
import type { AuthContext } from './auth-context.js';
import type { DashboardLinks } from '../accounts/dashboard-links.js';
import { isTokenShaped, newToken, tokenHash } from '../accounts/one-time-token.js';
import { checkNewPassword } from './password-policy.js';
import type { ClientInfo } from './session-service.js';
import type { SignInService } from './sign-in-service.js';

export class PasswordService {
  constructor(
    private readonly ctx: AuthContext,
    private readonly signIn: SignInService,
    private readonly links: DashboardLinks,
  ) {}

  /** Whether "forgot password" can mail a link (else the page says to ask the operator). */
  get canMail(): boolean {
    return this.ctx.mail !== null;
  }

  /** Mails a reset link if the address has an (enabled) account; resolves the same way whether it has one or not. */
  async requestReset(email: string, client: ClientInfo): Promise<void> {
    if (!this.ctx.mail) throw new InvalidArgumentError('email', 'This service sends no mail. Ask its operator for a reset link.');
    await this.ctx.limiter.take([[this.ctx.limits.resetIp, ipSubject(client.ip)], [this.ctx.limits.resetAccount, emailSubject(email)]]);
    const account = await this.ctx.store.findAccountByEmail(email.trim());
    if (!account || account.disabledAt !== null) return;
    this.ctx.mail.reset(account.email, await this.newResetToken(account));
  }

  /** A reset link for the operator to hand over (CLI, admin page). */
  async resetLink(account: AccountRecord): Promise<string> {
    return this.links.reset(await this.newResetToken(account));
  }

  /** Whether a reset link can still be used (its page shows the form, or says to ask for a new link). */
  async resetTokenValid(token: unknown): Promise<boolean> {
    return isTokenShaped(token) && (await this.ctx.auth.findToken(tokenHash(token), 'reset', this.ctx.now())) !== null;
  }

  async resetPassword(token: unknown, password: string, client: ClientInfo): Promise<AccountRecord> {
    const ipLimit = [[this.ctx.limits.resetIp, ipSubject(client.ip)]] as const;
    await this.ctx.limiter.check(ipLimit);
    const refused = new InvalidCredentialsError('This reset link was used already or has expired. Ask for a new one.');
    const live = isTokenShaped(token) ? await this.ctx.auth.findToken(tokenHash(token), 'reset', this.ctx.now()) : null;
    const account = live ? await this.ctx.store.getAccount(live.accountId) : null;
    if (!live || !account) {
      await this.ctx.limiter.record(ipLimit);
      throw refused;
    }
    checkNewPassword(password, account.email);
    const hash = await this.ctx.hasher.hash(password);
    if (!(await this.ctx.auth.consumeToken(tokenHash(token as string), 'reset', this.ctx.now()))) throw refused;
    await this.ctx.auth.setPasswordHash(account.id, hash);
    await this.ctx.auth.deleteTokens(account.id, 'reset');
    await this.ctx.auth.deleteTokens(account.id, 'second_factor');
    await this.ctx.sessions.endAll(account.id);
    await this.ctx.limiter.clear([this.ctx.limits.signinAccount, emailSubject(account.email)]);
    return account;
  }

  /** A signed-in user's change: the current password is confirmed; every other session ends. */
  async changePassword(account: AccountRecord, sessionId: number, current: string, next: string, client: ClientInfo): Promise<void> {
    await this.signIn.confirmPassword(account, current, client);
    checkNewPassword(next, account.email);
    await this.ctx.auth.setPasswordHash(account.id, await this.ctx.hasher.hash(next));
    await this.ctx.auth.deleteTokens(account.id, 'reset');
    await this.ctx.sessions.endAll(account.id, sessionId);
  }

  private async newResetToken(account: AccountRecord): Promise<string> {
    const now = this.ctx.now();
    const { token, hash } = newToken();
    await this.ctx.auth.createToken({ tokenHash: hash, purpose: 'reset', accountId: account.id, email: null, createdAt: now, expiresAt: now + RESET_MINUTES * 60 });
    return token;
  }
}
