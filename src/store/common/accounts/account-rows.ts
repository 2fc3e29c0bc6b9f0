/** Rows of the accounts tables as AccountStore records, the same way for every engine. */
import type { AccountRecord, ApiKeyRecord, PlanRecord } from '../../../core/store/account-store.js';

/** A row as a driver returns it: integers may be number, bigint or string, flags 0/1 or booleans. */
type StoredRow = Record<string, unknown>;

export const int = (value: unknown): number => Number(value);
export const intOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
/** SQLite stores flags as 0/1 (number or bigint), PostgreSQL as booleans. */
export const isSet = (value: unknown): boolean => value === true || value === 1 || value === 1n;

/** Accounts with their plan; both engines run this text (their placeholders come after it). */
export const ACCOUNT_SELECT =
  'SELECT a.id, a.email, a.created_at, a.period_ends_at, a.will_renew, a.last_login_at, p.name AS plan_name, ' +
  'p.max_daily_requests, p.max_concurrent_requests, p.updated_at AS plan_updated_at, a.is_admin, a.disabled_at, a.email_verified_at, ' +
  '(a.totp_enabled_at IS NOT NULL) AS totp_enabled FROM accounts a JOIN plans p ON p.name = a.plan';

export const toPlan = (r: StoredRow): PlanRecord => ({
  name: String(r['name']),
  maxDailyRequests: int(r['max_daily_requests']),
  maxConcurrentRequests: int(r['max_concurrent_requests']),
  updatedAt: int(r['updated_at']),
});

export const toAccount = (r: StoredRow): AccountRecord => ({
  id: int(r['id']),
  email: String(r['email']),
  plan: {
    name: String(r['plan_name']),
    maxDailyRequests: int(r['max_daily_requests']),
    maxConcurrentRequests: int(r['max_concurrent_requests']),
    updatedAt: int(r['plan_updated_at']),
  },
  createdAt: int(r['created_at']),
  periodEndsAt: int(r['period_ends_at']),
  willRenew: isSet(r['will_renew']),
  lastLoginAt: intOrNull(r['last_login_at']),
  isAdmin: isSet(r['is_admin']),
  disabledAt: intOrNull(r['disabled_at']),
  emailVerifiedAt: intOrNull(r['email_verified_at']),
  totpEnabled: isSet(r['totp_enabled']),
});

export const toKey = (r: StoredRow): ApiKeyRecord => ({
  id: int(r['id']),
  accountId: int(r['account_id']),
  prefix: String(r['prefix']),
  hash: new Uint8Array(r['key_hash'] as Uint8Array),
  createdAt: int(r['created_at']),
  revokedAt: intOrNull(r['revoked_at']),
  name: r['name'] === null || r['name'] === undefined ? null : String(r['name']),
  lastUsedAt: intOrNull(r['last_used_at']),
  expiresAt: intOrNull(r['expires_at']),
});
