/**
 * A signed-in user's own account: change the email (password confirmed; the new address must be verified again
 * when mail is configured, and the old one is told), turn the second factor off (password and a current code),
 * delete the account (password confirmed; keys stop at once here, within 5 s in other API processes).
 */
import { InvalidArgumentError, InvalidCredentialsError } from '../../core/domain/errors.js';
import type { AccountRecord } from '../../core/store/account-store.js';
import { isEmail } from '../accounts/account-service.js';
import type { AuthContext } from './auth-context.js';
import type { RegistrationService } from './registration-service.js';
import type { ClientInfo } from './session-service.js';
import type { SignInService } from './sign-in-service.js';

export class AccountSettingsService {
  constructor(
    private readonly ctx: AuthContext,
    private readonly signIn: SignInService,
    private readonly registration: RegistrationService,
  ) {}

  async changeEmail(account: AccountRecord, password: string, newEmail: string, client: ClientInfo): Promise<AccountRecord> {
    const email = newEmail.trim().toLowerCase();
    if (!isEmail(email)) throw new InvalidArgumentError('email', 'Enter an email address such as name@example.com.');
    if (email === account.email) throw new InvalidArgumentError('email', 'That is your current address.');
    await this.signIn.confirmPassword(account, password, client);
    const changed = await this.ctx.store.updateAccount(account.id, { email, emailVerifiedAt: null });
    if (!changed) throw new InvalidCredentialsError('This account no longer exists.');
    await this.ctx.auth.deleteTokens(account.id, 'verify');
    this.ctx.accounts.invalidate();
    this.ctx.mail?.emailChanged(account.email, email);
    await this.registration.sendVerification(changed);
    return changed;
  }

  async disableSecondFactor(account: AccountRecord, password: string, code: string, client: ClientInfo): Promise<void> {
    await this.signIn.confirmPassword(account, password, client);
    if (!(await this.ctx.totp.check(account.id, code))) throw new InvalidCredentialsError('That code is wrong or was already used.');
    await this.ctx.totp.remove(account.id);
  }

  async deleteAccount(account: AccountRecord, password: string, client: ClientInfo): Promise<void> {
    await this.signIn.confirmPassword(account, password, client);
    await this.ctx.store.deleteAccount(account.id);
    this.ctx.accounts.invalidate();
  }
}
