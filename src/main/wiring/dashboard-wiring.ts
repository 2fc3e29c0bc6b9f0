/** Builds the dashboard's services from the configuration: drivers for mail and attempt counters chosen here. */
import type { OutpointConfig } from '../../config/index.js';
import type { AttemptCounter, ChainStore, Logger, Mailer } from '../../core/index.js';
import { SmtpMailer } from '../../mail/smtp-mailer.js';
import { RedisAttemptCounter } from '../../redis/redis-attempt-counter.js';
import type { AccountService } from '../../services/accounts/account-service.js';
import { createDashboardServices, type DashboardServices, type DashboardSettings } from '../../services/dashboard/create-dashboard-services.js';
import { MemoryAttemptCounter } from '../../counters/memory-attempt-counter.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { secretKeyLoader } from './secret-key.js';

export function dashboardSettings(config: OutpointConfig): DashboardSettings {
  const a = config.accounts;
  return {
    registration: a.registration,
    defaultPlan: a.defaultPlan,
    keyGraceSeconds: a.keyGraceSeconds,
    sessionIdleSeconds: a.sessionIdleHours * 3600,
    sessionMaxSeconds: a.sessionMaxDays * 86_400,
    usageKeepDays: a.usageKeepDays,
    passwordHashConcurrency: a.passwordHashConcurrency,
    signinFailuresPerIp: a.signinFailuresPerIp,
    signinFailuresPerAccount: a.signinFailuresPerAccount,
    signinAttemptsPerIp: a.signinAttemptsPerIp,
    signinAttemptsPerAccount: a.signinAttemptsPerAccount,
  };
}

export function createAttemptCounter(config: OutpointConfig, logger: Logger): AttemptCounter {
  const memory = new MemoryAttemptCounter();
  return config.redis.url ? new RedisAttemptCounter(config.redis.url, memory, logger) : memory;
}

export function createMailer(config: OutpointConfig): Mailer | null {
  return config.smtp.url ? new SmtpMailer(config.smtp.url, config.smtp.from) : null;
}

export interface DashboardWiring {
  readonly config: OutpointConfig;
  readonly store: ChainStore;
  readonly accounts: AccountService;
  readonly usage: UsageCounter;
  /** Sign-in and sign-up attempts; default this process's (memory or Redis). */
  readonly attempts?: AttemptCounter;
  readonly logger: Logger;
  /** UNIX seconds. */
  readonly now: () => number;
  /** The URL links point at (the listening URL when public_url was left at its default). */
  readonly publicUrl?: string;
}

export function buildDashboard(w: DashboardWiring): DashboardServices {
  return createDashboardServices({
    accounts: w.accounts,
    usage: w.usage,
    store: w.store.accounts(),
    auth: w.store.auth(),
    settings: dashboardSettings(w.config),
    secretKey: secretKeyLoader(w.config, w.logger),
    attempts: w.attempts ?? createAttemptCounter(w.config, w.logger),
    mailer: createMailer(w.config),
    publicUrl: w.publicUrl ?? w.config.http.publicUrl,
    logger: w.logger,
    now: w.now,
  });
}
