/** `[accounts]`: the dashboard's sign-up, sessions and limits, and the v3 key-failure limit (docs/dashboard.md). */
import { ConfigError } from '../core/index.js';
import { SECTION_KEYS, type KeySpec } from './config-schema.js';
import type { AccountsConfig, Registration } from './config-types.js';
import { int, optionalStr, str, type Raw } from './config-values.js';

export function buildAccounts(table: Raw): AccountsConfig {
  const spec = (k: string): KeySpec => SECTION_KEYS['accounts']![k]!;
  const number = (k: string, fallback: number): number => int(table, k, spec(k), fallback, `accounts.${k}`);
  const secretKey = optionalStr(table, 'secret_key', spec('secret_key'), 'accounts.secret_key');
  if (secretKey !== null && !/^[0-9a-fA-F]{64}$/.test(secretKey)) throw new ConfigError('accounts.secret_key must be 64 hex digits (32 random bytes, e.g. `openssl rand -hex 32`)');
  return {
    registration: str(table, 'registration', spec('registration'), 'invite', 'accounts.registration') as Registration,
    defaultPlan: str(table, 'default_plan', spec('default_plan'), 'free', 'accounts.default_plan'),
    secretKey: secretKey?.toLowerCase() ?? null,
    keyGraceSeconds: number('key_grace_seconds', 86_400),
    sessionIdleHours: number('session_idle_hours', 72),
    sessionMaxDays: number('session_max_days', 30),
    usageKeepDays: number('usage_keep_days', 400),
    passwordHashConcurrency: number('password_hash_concurrency', 2),
    signinFailuresPerIp: number('signin_failures_per_ip', 30),
    signinFailuresPerAccount: number('signin_failures_per_account', 10),
    signinAttemptsPerIp: number('signin_attempts_per_ip', 60),
    signinAttemptsPerAccount: number('signin_attempts_per_account', 20),
    keyFailuresPerIp: number('key_failures_per_ip', 100),
  };
}
