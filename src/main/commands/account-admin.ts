import type { AccountRecord, ApiKeyRecord, ChainStore, PlanRecord } from '../../core/index.js';
import type { OutpointConfig } from '../../config/index.js';
import { AccountService, currentPeriodEnd } from '../../services/accounts/account-service.js';
import type { DashboardServices } from '../../services/dashboard/create-dashboard-services.js';
import { StoreUsageCounter } from '../../counters/store-usage-counter.js';
import type { OptionValues } from '../cli/command.js';
import { configFromOptions } from '../cli/config-option.js';
import { buildDashboard } from '../wiring/dashboard-wiring.js';
import { createStderrLogger } from '../logging/logger.js';
import { openStore } from '../stores/open-store.js';

/** Opens the configured store (migrated: accounts need schema 4), runs fn with the account service, closes the store. */
export async function withAccounts<T>(options: OptionValues, fn: (accounts: AccountService, store: ChainStore) => Promise<T>): Promise<T> {
  const config = configFromOptions(options);
  const store = openStore(config.store.url);
  try {
    await store.migrate();
    return await fn(new AccountService(store.accounts()), store);
  } finally {
    await store.close();
  }
}

export interface DashboardTools {
  readonly accounts: AccountService;
  readonly dashboard: DashboardServices;
  readonly store: ChainStore;
  readonly config: OutpointConfig;
}

/** withAccounts plus the dashboard's services (invites, reset links, second factors, password hashing). */
export async function withDashboard<T>(options: OptionValues, fn: (tools: DashboardTools) => Promise<T>): Promise<T> {
  const config = configFromOptions(options);
  const logger = createStderrLogger();
  return withAccounts(options, async (accounts, store) => {
    const usage = new StoreUsageCounter(store.accounts(), logger);
    const dashboard = buildDashboard({ config, store, accounts, usage, logger, now: () => Math.floor(Date.now() / 1000) });
    try {
      return await fn({ accounts, dashboard, store, config });
    } finally {
      await dashboard.close();
      await usage.close();
    }
  });
}

export function requireString(options: OptionValues, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}

export function optionalString(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function integerOption(options: OptionValues, name: string): number | undefined {
  const text = optionalString(options, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw new Error(`--${name} must be a non-negative integer`);
  return Number(text);
}

/** `starter: 10000 requests per day, 8 concurrent` (or "no concurrency limit"). */
export function planLine(plan: PlanRecord): string {
  const concurrent = plan.maxConcurrentRequests > 0 ? `${plan.maxConcurrentRequests} concurrent` : 'no concurrency limit';
  return `${plan.name}: ${plan.maxDailyRequests} requests per day, ${concurrent}`;
}

const iso = (t: number | null) => (t === null ? '-' : new Date(t * 1000).toISOString().replace('.000Z', 'Z'));

export function keyLine(key: ApiKeyRecord): string {
  const state = key.revokedAt !== null ? `revoked ${iso(key.revokedAt)}` : key.expiresAt !== null ? `rotated, works until ${iso(key.expiresAt)}` : 'active';
  return `  key ${key.prefix}…  created ${iso(key.createdAt)}  ${state}${key.name ? `  "${key.name}"` : ''}${key.lastUsedAt !== null ? `  last used ${iso(key.lastUsedAt)}` : ''}`;
}

/** One account as operators read it: plan, period, usage today/yesterday (UTC) and keys by prefix. */
export async function describeAccount(accounts: AccountService, store: ChainStore, account: AccountRecord): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const counter = new StoreUsageCounter(store.accounts(), createStderrLogger());
  const usage = await counter.read(account.id, now);
  await counter.close();
  const keys = await accounts.keys(account.id);
  return [
    `${account.email} (account ${account.id})`,
    `  plan ${planLine(account.plan)}${account.isAdmin ? '; administrator' : ''}${account.disabledAt !== null ? `; DISABLED ${iso(account.disabledAt)}` : ''}`,
    `  period ends ${iso(currentPeriodEnd(account, now))}, ${account.willRenew ? 'renews' : 'does not renew'}`,
    `  requests today ${usage.today}, yesterday ${usage.yesterday} (UTC days)`,
    ...keys.map(keyLine),
  ].join('\n');
}
