/**
 * The dashboard's services over a real store (SQLite or PostgreSQL) with a settable clock, the real SMTP driver
 * talking to a loopback SMTP sink (optional), in-memory attempt counters and a cheap scrypt cost (the hasher's
 * own test checks the real one). Everything a test needs to act as a user and to look at what was stored.
 */
import { randomBytes } from 'node:crypto';
import { TOTP } from 'otpauth';
import type { ChainStore, Logger } from '../../src/core/index.js';
import { SmtpMailer } from '../../src/mail/smtp-mailer.js';
import { AccountService } from '../../src/services/accounts/account-service.js';
import { createDashboardServices, type DashboardServices, type DashboardSettings } from '../../src/services/dashboard/create-dashboard-services.js';
import { MemoryAttemptCounter } from '../../src/counters/memory-attempt-counter.js';
import { PasswordHasher } from '../../src/services/dashboard/password-hasher.js';
import type { ClientInfo } from '../../src/services/dashboard/session-service.js';
import { StoreUsageCounter } from '../../src/counters/store-usage-counter.js';
import { after, before } from 'node:test';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { StoreEngines, type EngineName } from './store-engines.js';

export const SETTINGS: DashboardSettings = {
  registration: 'open', defaultPlan: 'free', keyGraceSeconds: 600, sessionIdleSeconds: 3600, sessionMaxSeconds: 86_400, usageKeepDays: 400,
  passwordHashConcurrency: 2, signinFailuresPerIp: 30, signinFailuresPerAccount: 5,
};

export const CLIENT: ClientInfo = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (test)' };

export interface DashboardFixture {
  readonly d: DashboardServices;
  readonly accounts: AccountService;
  readonly usage: StoreUsageCounter;
  readonly store: ChainStore;
  /** UNIX seconds every service reads; tests move it. */
  readonly clock: { t: number };
  close(): Promise<void>;
}

export function dashboardFixture(store: ChainStore, logger: Logger, options: { smtp?: SmtpSink; settings?: Partial<DashboardSettings> } = {}): DashboardFixture {
  const clock = { t: Math.floor(Date.now() / 1000) };
  const now = () => clock.t;
  const accounts = new AccountService(store.accounts(), now, 0);
  const usage = new StoreUsageCounter(store.accounts(), logger, 100);
  const d = createDashboardServices({
    accounts, usage, store: store.accounts(), auth: store.auth(),
    settings: { ...SETTINGS, ...options.settings },
    secretKey: randomBytes(32),
    attempts: new MemoryAttemptCounter(() => clock.t * 1000),
    mailer: options.smtp ? new SmtpMailer(options.smtp.url, 'Outpoint <outpoint@outpoint.test>') : null,
    publicUrl: 'https://outpoint.test',
    logger, now,
    hasher: new PasswordHasher(2, { ln: 10, r: 8, p: 1 }),
  });
  return {
    d, accounts, usage, store, clock,
    async close() {
      await d.close();
      await usage.close();
    },
  };
}

/** The current code of an authenticator app holding the base32 secret. */
export function totpCode(secret: string, atSeconds: number): string {
  return new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: atSeconds * 1000 });
}

/** The value of a query parameter of a link from a mail. */
export function linkParam(link: string, name: string): string {
  return new URL(link).searchParams.get(name)!;
}

export interface DashboardFixtures {
  /** A fixture on a fresh store of the engine; `withMail` sends through the file's SMTP sink. */
  fixture(engine: EngineName, options?: { withMail?: boolean; mailUrl?: string; settings?: Partial<DashboardSettings> }): Promise<DashboardFixture>;
  /** The loopback SMTP server of the file (started in its before hook). */
  smtp(): SmtpSink;
}

/** For a test file: registers before/after hooks that start an SMTP sink and close every store and fixture made. */
export function dashboardFixtures(logger: Logger): DashboardFixtures {
  const engines = new StoreEngines();
  const made: DashboardFixture[] = [];
  let sink: SmtpSink | null = null;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(async () => {
    for (const f of made) await f.close();
    await engines.close();
    await sink?.stop();
  });
  return {
    async fixture(engine, options = {}) {
      const mail = options.mailUrl !== undefined ? { ...sink!, url: options.mailUrl } : options.withMail ? sink! : undefined;
      const f = dashboardFixture((await engines.create(engine)).store, logger, { ...(mail ? { smtp: mail } : {}), ...(options.settings ? { settings: options.settings } : {}) });
      made.push(f);
      return f;
    },
    smtp: () => sink!,
  };
}
