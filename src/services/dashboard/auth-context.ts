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
  /** The same per email (counted for unknown emails too); lifted only by a completed sign-in or a password reset. */
  readonly signinAccount: LimitRule;
  /** Every password check (sign-in or confirmation, right or wrong) per client network: each costs a hash. */
  readonly attemptsIp: LimitRule;
  /** The same per email. */
  readonly attemptsAccount: LimitRule;
  /** Codes tried in one pending second-factor step (the subject is the step's token hash). */
  readonly pendingCodes: LimitRule;
  /** Reset-mail requests and failed reset-link uses per client network. */
  readonly resetIp: LimitRule;
  /** Reset mails per email (against mail bombing). */
  readonly resetAccount: LimitRule;
  /** Accounts made per client network. */
  readonly signupIp: LimitRule;
}

/** At most this many codes per pending sign-in; then the step ends and the password is asked again. */
export const CODES_PER_SIGN_IN = 5;
const SIGN_IN_WINDOW = 900;

export interface SignInLimitSettings {
  readonly signinFailuresPerIp: number;
  readonly signinFailuresPerAccount: number;
  readonly signinAttemptsPerIp: number;
  readonly signinAttemptsPerAccount: number;
}

export function authLimits(s: SignInLimitSettings): AuthLimits {
  return {
    signinIp: { name: 'signin-ip', max: s.signinFailuresPerIp, windowSeconds: SIGN_IN_WINDOW },
    signinAccount: { name: 'signin-account', max: s.signinFailuresPerAccount, windowSeconds: SIGN_IN_WINDOW },
    attemptsIp: { name: 'signin-attempts-ip', max: s.signinAttemptsPerIp, windowSeconds: SIGN_IN_WINDOW },
    attemptsAccount: { name: 'signin-attempts-account', max: s.signinAttemptsPerAccount, windowSeconds: SIGN_IN_WINDOW },
    // The step's token lives 5 minutes (SECOND_FACTOR_SECONDS); its count need not outlive it.
    pendingCodes: { name: 'signin-codes', max: CODES_PER_SIGN_IN, windowSeconds: 300 },
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
