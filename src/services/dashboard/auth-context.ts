/** What the dashboard's sign-up, sign-in, reset and settings services share (built once by createDashboardServices). */
import type { AccountStore } from '../../core/store/account-store.js';
import type { AuthStore } from '../../core/store/auth-store.js';
import type { AccountMail } from '../accounts/account-mail.js';
import type { AccountService } from '../accounts/account-service.js';
import type { AttemptLimiter, LimitRule } from '../limits/attempt-limiter.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionService } from './session-service.js';
import type { TotpService } from './totp-service.js';

export interface AuthLimits {
  /** Failed sign-ins, second-factor codes and password confirmations per client network. */
  readonly signinIp: LimitRule;
  /** The same per email (counted for unknown emails too). */
  readonly signinAccount: LimitRule;
  /** Reset-mail requests and failed reset-link uses per client network. */
  readonly resetIp: LimitRule;
  /** Reset mails per email (against mail bombing). */
  readonly resetAccount: LimitRule;
  /** Accounts made per client network. */
  readonly signupIp: LimitRule;
}

export function authLimits(signinPerIp: number, signinPerAccount: number): AuthLimits {
  return {
    signinIp: { name: 'signin-ip', max: signinPerIp, windowSeconds: 900 },
    signinAccount: { name: 'signin-account', max: signinPerAccount, windowSeconds: 900 },
    resetIp: { name: 'reset-ip', max: 20, windowSeconds: 3600 },
    resetAccount: { name: 'reset-account', max: 3, windowSeconds: 3600 },
    signupIp: { name: 'signup-ip', max: 10, windowSeconds: 3600 },
  };
}

export interface AuthContext {
  readonly accounts: AccountService;
  readonly store: AccountStore;
  readonly auth: AuthStore;
  readonly hasher: PasswordHasher;
  readonly sessions: SessionService;
  readonly limiter: AttemptLimiter;
  readonly limits: AuthLimits;
  readonly totp: TotpService;
  /** null without [smtp] url: no verification mail, and reset links come from the operator. */
  readonly mail: AccountMail | null;
  /** UNIX seconds. */
  readonly now: () => number;
}
