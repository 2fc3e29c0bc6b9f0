/** `[accounts]`: the dashboard's sign-up, sessions and limits, and the v3 key-failure limit (docs/dashboard.md). */
import { ConfigError } from '../core/index.js';
import type { AccountsConfig, Registration } from './config-types.js';
import type { KeyReader } from './config-values.js';

export function buildAccounts(accounts: KeyReader): AccountsConfig {
  const secretKey = accounts.optionalStr('secret_key');
  if (secretKey !== null && !/^[0-9a-fA-F]{64}$/.test(secretKey)) throw new ConfigError('accounts.secret_key must be 64 hex digits (32 random bytes, e.g. `openssl rand -hex 32`)');
  return {
    registration: accounts.str('registration') as Registration,
    defaultPlan: accounts.str('default_plan'),
    secretKey: secretKey?.toLowerCase() ?? null,
    keyGraceSeconds: accounts.int('key_grace_seconds'),
    sessionIdleHours: accounts.int('session_idle_hours'),
    sessionMaxDays: accounts.int('session_max_days'),
    usageKeepDays: accounts.int('usage_keep_days'),
    passwordHashConcurrency: accounts.int('password_hash_concurrency'),
    signinFailuresPerIp: accounts.int('signin_failures_per_ip'),
    signinFailuresPerAccount: accounts.int('signin_failures_per_account'),
    signinAttemptsPerIp: accounts.int('signin_attempts_per_ip'),
    signinAttemptsPerAccount: accounts.int('signin_attempts_per_account'),
    keyFailuresPerIp: accounts.int('key_failures_per_ip'),
  };
}
