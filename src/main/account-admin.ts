import type { AccountRecord, ApiKeyRecord, ChainStore, PlanRecord } from '../core/index.js';
import { AccountService, currentPeriodEnd } from '../services/account-service.js';
import { StoreUsageCounter } from '../services/usage-counter.js';
import type { OptionValues } from './command.js';
import { configFromOptions } from './config-option.js';
import { createStderrLogger } from './logger.js';
import { openStore } from './open-store.js';

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
  return `  key ${key.prefix}…  created ${iso(key.createdAt)}  ${key.revokedAt === null ? 'active' : `revoked ${iso(key.revokedAt)}`}`;
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
    `  plan ${planLine(account.plan)}`,
    `  period ends ${iso(currentPeriodEnd(account, now))}, ${account.willRenew ? 'renews' : 'does not renew'}`,
    `  requests today ${usage.today}, yesterday ${usage.yesterday} (UTC days)`,
    ...keys.map(keyLine),
  ].join('\n');
}
