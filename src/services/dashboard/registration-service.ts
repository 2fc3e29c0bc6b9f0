/**
 * Who can get an account ([accounts] registration): `closed` — only the operator's CLI; `invite` — whoever has a
 * one-time invite link; `open` — anyone, on [accounts] default_plan (an invite still works and gives its plan).
 * A new account is signed in at once. With mail configured its address gets a verification link and keys wait
 * for it (ApiKeyService.blocker); without mail the account is usable at once. Sign-ups are limited per client
 * network. A taken email is said so: sign-up cannot hide it without mail, and the limit bounds what it reveals.
 */
import { InvalidArgumentError, InvalidCredentialsError } from '../../core/domain/errors.js';
import type { AccountRecord } from '../../core/store/account-store.js';
import type { InviteRecord } from '../../core/store/auth-store.js';
import { VERIFY_HOURS } from '../accounts/account-mail.js';
import { isEmail } from '../accounts/account-service.js';
import { emailSubject, ipSubject } from '../limits/attempt-limiter.js';
import type { AuthContext } from './auth-context.js';
import type { InviteService } from '../accounts/invite-service.js';
import { isTokenShaped, newToken, tokenHash } from '../accounts/one-time-token.js';
import { checkNewPassword } from './password-policy.js';
import type { ActiveSession, ClientInfo } from './session-service.js';

export type Registration = 'closed' | 'invite' | 'open';

export interface SignUpInput {
  readonly email: string;
  readonly password: string;
  /** The code of an invite link. */
  readonly invite?: string | undefined;
}

export class RegistrationService {
  constructor(
    private readonly ctx: AuthContext,
    private readonly invites: InviteService,
    readonly mode: Registration,
    private readonly defaultPlan: string,
  ) {}

  /** What the sign-up page may offer for this (optional) invite code: an invite, open sign-up, or nothing. */
  async offer(inviteCode: unknown): Promise<{ invite: InviteRecord | null; open: boolean }> {
    const invite = this.mode === 'closed' || inviteCode === undefined ? null : await this.invites.usable(inviteCode);
    return { invite, open: this.mode === 'open' };
  }

  async signUp(input: SignUpInput, client: ClientInfo): Promise<{ token: string; active: ActiveSession }> {
    const { invite, open } = await this.offer(input.invite);
    if (!invite && !open) {
      throw new InvalidArgumentError('invite', this.mode === 'invite' ? 'This invite link was used, revoked or has expired. Ask for a new one.' : 'Sign-up is closed on this service.');
    }
    const email = input.email.trim();
    if (!isEmail(email)) throw new InvalidArgumentError('email', 'Enter an email address such as name@example.com.');
    checkNewPassword(input.password, email);
    await this.ctx.limiter.take([[this.ctx.limits.signupIp, ipSubject(client.ip)]]);
    if (await this.ctx.store.findAccountByEmail(email)) throw new InvalidArgumentError('email', 'An account with this email exists. Sign in, or reset its password.');
    const account = await this.ctx.accounts.openAccount(email, invite?.plan ?? this.defaultPlan, {
      passwordHash: await this.ctx.hasher.hash(input.password),
      isAdmin: invite?.isAdmin ?? false,
      ...(invite ? { inviteId: invite.id } : {}),
    });
    await this.sendVerification(account);
    return this.ctx.sessions.start(account, client);
  }

  /** Mails a verification link for the account's current address (no-op without mail or when verified). */
  async sendVerification(account: AccountRecord): Promise<boolean> {
    if (!this.ctx.mail || account.emailVerifiedAt !== null) return false;
    const now = this.ctx.now();
    const { token, hash } = newToken();
    await this.ctx.auth.createToken({ tokenHash: hash, purpose: 'verify', accountId: account.id, email: account.email, createdAt: now, expiresAt: now + VERIFY_HOURS * 3600 });
    this.ctx.mail.verification(account.email, token);
    return true;
  }

  /** The user asks for the link again: limited like reset mails (3 an hour per address), against mail bombing. */
  async resendVerification(account: AccountRecord): Promise<boolean> {
    await this.ctx.limiter.take([[this.ctx.limits.resetAccount, emailSubject(account.email)]]);
    return this.sendVerification(account);
  }

  /** Confirms the address a verification link was sent to (if it is still the account's). */
  async verify(token: unknown): Promise<AccountRecord> {
    const refused = new InvalidCredentialsError('This link was used already or has expired. Sign in and ask for a new one.');
    if (!isTokenShaped(token)) throw refused;
    const used = await this.ctx.auth.consumeToken(tokenHash(token), 'verify', this.ctx.now());
    const account = used ? await this.ctx.store.getAccount(used.accountId) : null;
    if (!used || !account) throw refused;
    if (account.email !== used.email) throw new InvalidCredentialsError('This link was for an earlier email address of the account.');
    return (await this.ctx.store.updateAccount(account.id, { emailVerifiedAt: this.ctx.now() })) ?? account;
  }
}
