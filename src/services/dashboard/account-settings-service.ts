/**
 * A signed-in user's own account: change the email (password confirmed; the new address must be verified again
 * when mail is configured, and the old one is told), turn the second factor off (password and a current code),
 * set it up (password), make new recovery codes (password and a current code), delete the account (password
 * confirmed; keys stop at once here, within 5 s in other API processes).
 */
import { InvalidArgumentError, InvalidCredentialsError } from '../../core/domain/errors.js';
import type { AccountRecord } from '../../core/store/account-store.js';
import { isEmail } from '../accounts/account-service.js';
import type { AuthContext } from './auth-context.js';
import type { RegistrationService } from './registration-service.js';
import type { ClientInfo } from './session-service.js';
import type { SignInService } from './sign-in-service.js';
import type { Enrolment } from './totp-service.js';

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

  /** Starts (or restarts) setting up the second factor: the password first, so a left-open session cannot enrol its own device. */
  async beginSecondFactor(account: AccountRecord, password: string, client: ClientInfo): Promise<Enrolment> {
    await this.signIn.confirmPassword(account, password, client);
    return this.ctx.totp.begin(account);
  }

  /** New recovery codes (the old ones stop working): the password and a current code. */
  async newRecoveryCodes(account: AccountRecord, password: string, code: string, client: ClientInfo): Promise<string[]> {
    await this.signIn.confirmPasswordAndCode(account, password, code, client);
    return this.ctx.totp.newRecoveryCodes(account.id);
  }

  async disableSecondFactor(account: AccountRecord, password: string, code: string, client: ClientInfo): Promise<void> {
    await this.signIn.confirmPasswordAndCode(account, password, code, client);
    await this.ctx.totp.remove(account.id);
  }

  async deleteAccount(account: AccountRecord, password: string, client: ClientInfo): Promise<void> {
    await this.signIn.confirmPassword(account, password, client);
    await this.ctx.store.deleteAccount(account.id);
    this.ctx.accounts.invalidate();
  }
}
