/**
 * The dashboard's services, built once per process on top of v3's AccountService and UsageCounter (shared, so a
 * key revoked or a plan changed in the dashboard is refused by this process's v3 at once, and the dashboard shows
 * the live request counts).
 */
import type { AttemptCounter } from '../../core/limits/attempt-counter.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { Mailer } from '../../core/infrastructure/mailer.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { AuthStore } from '../../core/store/auth-store.js';
import { AccountHousekeeping } from '../accounts/account-housekeeping.js';
import { AccountMail } from '../accounts/account-mail.js';
import type { AccountService } from '../accounts/account-service.js';
import { AccountSettingsService } from './account-settings-service.js';
import { AdminService } from './admin-service.js';
import { ApiKeyService } from '../accounts/api-key-service.js';
import { AttemptLimiter } from '../limits/attempt-limiter.js';
import { authLimits, type AuthContext } from './auth-context.js';
import { DashboardLinks } from '../accounts/dashboard-links.js';
import { InviteService } from '../accounts/invite-service.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordService } from './password-service.js';
import { RegistrationService, type Registration } from './registration-service.js';
import { SecretBox } from './secret-box.js';
import { SessionService } from './session-service.js';
import { SignInService } from './sign-in-service.js';
import { TotpService } from './totp-service.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { UsageService } from '../accounts/usage-service.js';

export interface DashboardSettings {
  readonly registration: Registration;
  readonly defaultPlan: string;
  readonly keyGraceSeconds: number;
  readonly sessionIdleSeconds: number;
  readonly sessionMaxSeconds: number;
  readonly usageKeepDays: number;
  readonly passwordHashConcurrency: number;
  readonly signinFailuresPerIp: number;
  readonly signinFailuresPerAccount: number;
}

export interface DashboardDeps {
  readonly accounts: AccountService;
  readonly usage: UsageCounter;
  readonly store: AccountStore;
  readonly auth: AuthStore;
  readonly settings: DashboardSettings;
  /** 32 bytes, or a function reading them at first use. */
  readonly secretKey: Uint8Array | (() => Uint8Array);
  readonly attempts: AttemptCounter;
  /** null: no [smtp] url. */
  readonly mailer: Mailer | null;
  /** [http] public_url, for links in mail and the CLI. */
  readonly publicUrl: string;
  readonly logger: Logger;
  /** UNIX seconds. */
  readonly now: () => number;
  /** Tests lower the scrypt cost to keep runs short; production uses PASSWORD_PARAMS. */
  readonly hasher?: PasswordHasher;
}

export interface DashboardServices {
  readonly registration: RegistrationService;
  readonly signIn: SignInService;
  readonly passwords: PasswordService;
  readonly settings: AccountSettingsService;
  readonly sessions: SessionService;
  readonly keys: ApiKeyService;
  readonly totp: TotpService;
  readonly invites: InviteService;
  readonly usage: UsageService;
  readonly admin: AdminService;
  readonly housekeeping: AccountHousekeeping;
  readonly links: DashboardLinks;
  readonly mail: AccountMail | null;
  /** For the CLI's --password-prompt (the same concurrency cap as sign-ins). */
  readonly hasher: PasswordHasher;
  /** Stops housekeeping, waits for mail in flight, closes the mailer and the attempt counters. */
  close(): Promise<void>;
}

export function createDashboardServices(deps: DashboardDeps): DashboardServices {
  const { settings, now } = deps;
  const box = new SecretBox(deps.secretKey);
  const links = new DashboardLinks(deps.publicUrl);
  const mail = deps.mailer ? new AccountMail(deps.mailer, links, deps.logger) : null;
  const sessions = new SessionService({ accounts: deps.store, auth: deps.auth, box, idleSeconds: settings.sessionIdleSeconds, maxSeconds: settings.sessionMaxSeconds, now });
  const totp = new TotpService({ auth: deps.auth, box, issuer: new URL(deps.publicUrl).host, now });
  const ctx: AuthContext = {
    accounts: deps.accounts,
    store: deps.store,
    auth: deps.auth,
    hasher: deps.hasher ?? new PasswordHasher(settings.passwordHashConcurrency),
    sessions,
    limiter: new AttemptLimiter(deps.attempts),
    limits: authLimits(settings.signinFailuresPerIp, settings.signinFailuresPerAccount),
    totp,
    mail,
    now,
  };
  const invites = new InviteService({ accounts: deps.store, auth: deps.auth, links, now });
  const signIn = new SignInService(ctx);
  const registration = new RegistrationService(ctx, invites, settings.registration, settings.defaultPlan);
  const passwords = new PasswordService(ctx, signIn, links);
  const usage = new UsageService(deps.store, deps.usage, now);
  const housekeeping = new AccountHousekeeping({
    accounts: deps.store, auth: deps.auth, idleSeconds: settings.sessionIdleSeconds, usageKeepDays: settings.usageKeepDays, logger: deps.logger, now,
  });
  return {
    registration,
    signIn,
    passwords,
    settings: new AccountSettingsService(ctx, signIn, registration),
    sessions,
    keys: new ApiKeyService({ accounts: deps.accounts, store: deps.store, usage: deps.usage, graceSeconds: settings.keyGraceSeconds, mailConfigured: mail !== null, now }),
    totp,
    invites,
    usage,
    admin: new AdminService({ accounts: deps.accounts, store: deps.store, sessions, totp, invites, passwords, usage }),
    housekeeping,
    links,
    mail,
    hasher: ctx.hasher,
    async close() {
      await housekeeping.stop();
      await mail?.close();
      await deps.attempts.close();
    },
  };
}
