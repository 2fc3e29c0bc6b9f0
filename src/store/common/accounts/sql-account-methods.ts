/**
 * AccountStore written once for both engines over a SqlRunner, but for the account usage counts, whose fast paths
 * differ (each driver adds them). Every multi-statement change is one transaction.
 */
import { InvalidArgumentError } from '../../../core/domain/errors.js';
import type {
  AccountChanges, AccountRecord, ApiKeyRecord, KeyUsageIncrement, NewAccount, NewApiKey, PlanRecord, UsageRow,
} from '../../../core/store/account-store.js';
import { ACCOUNT_SELECT, int, toAccount, toKey, toPlan } from './account-rows.js';
import { bytes, flag, type SqlRunner, type SqlValue, type Statement } from '../sql/sql-runner.js';

/** Changes an account update may make, and their columns. */
const COLUMNS: Record<keyof AccountChanges, string> = {
  email: 'email', plan: 'plan', isAdmin: 'is_admin', disabledAt: 'disabled_at', emailVerifiedAt: 'email_verified_at', lastLoginAt: 'last_login_at',
};

const emailTaken = (email: string) => new InvalidArgumentError('email', `an account with email ${email} exists`);
const prefixTaken = (prefix: string) => new InvalidArgumentError('prefix', `key prefix ${prefix} is taken`);

/** Fails the transaction unless the plan exists (a no-op update: it changes one row exactly when the plan is there). */
function planMustExist(plan: string): Statement {
  return { sql: 'UPDATE plans SET name = name WHERE name = ?', params: [plan], expectOne: new InvalidArgumentError('plan', `no plan named ${plan}`) };
}

const missing = new Error('no such account');

export abstract class SqlAccountMethods {
  constructor(protected readonly sql: SqlRunner) {}

  async createAccount(input: NewAccount): Promise<AccountRecord> {
    const email = input.email.toLowerCase();
    const statements: Statement[] = [];
    if (input.inviteId !== undefined) {
      statements.push({
        sql: 'UPDATE invites SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?',
        params: [input.createdAt, input.inviteId, input.createdAt],
        expectOne: new InvalidArgumentError('invite', 'this invite was already used, was revoked, or has expired'),
      });
    }
    statements.push(planMustExist(input.plan), {
      sql: 'INSERT INTO accounts (email, plan, created_at, period_ends_at, will_renew, is_admin, email_verified_at, password_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      params: [email, input.plan, input.createdAt, input.periodEndsAt, flag(input.willRenew), flag(input.isAdmin ?? false), input.emailVerifiedAt ?? null, input.passwordHash ?? null],
      unique: emailTaken(email),
    });
    if (input.inviteId !== undefined) {
      statements.push({ sql: 'UPDATE invites SET used_by = (SELECT id FROM accounts WHERE email = ?) WHERE id = ?', params: [email, input.inviteId] });
    }
    await this.sql.batch(statements);
    return (await this.findAccountByEmail(email))!;
  }

  async getAccount(id: number): Promise<AccountRecord | null> {
    return this.oneAccount(`${ACCOUNT_SELECT} WHERE a.id = ?`, [id]);
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    return this.oneAccount(`${ACCOUNT_SELECT} WHERE a.email = ?`, [email.toLowerCase()]);
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (await this.sql.all(`${ACCOUNT_SELECT} ORDER BY a.id`, [])).map(toAccount);
  }

  async searchAccounts(emailContains: string, limit: number, offset: number): Promise<AccountRecord[]> {
    // Emails are stored lower-cased, so a lower-cased pattern matches the same rows on both engines.
    const pattern = `%${emailContains.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    return (await this.sql.all(`${ACCOUNT_SELECT} WHERE a.email LIKE ? ESCAPE '\\' ORDER BY a.id LIMIT ? OFFSET ?`, [pattern, limit, offset])).map(toAccount);
  }

  async updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord | null> {
    const sets: string[] = [];
    const params: SqlValue[] = [];
    for (const [field, column] of Object.entries(COLUMNS) as [keyof AccountChanges, string][]) {
      const value = changes[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(typeof value === 'boolean' ? flag(value) : field === 'email' ? (value as string).toLowerCase() : value);
    }
    if (sets.length > 0) {
      const statements: Statement[] = changes.plan !== undefined ? [planMustExist(changes.plan)] : [];
      statements.push({
        sql: `UPDATE accounts SET ${sets.join(', ')} WHERE id = ?`,
        params: [...params, id],
        expectOne: missing,
        ...(changes.email !== undefined ? { unique: emailTaken(changes.email.toLowerCase()) } : {}),
      });
      try {
        await this.sql.batch(statements);
      } catch (error) {
        if (error === missing) return null;
        throw error;
      }
    }
    return this.getAccount(id);
  }

  async deleteAccount(id: number): Promise<boolean> {
    const counts = await this.sql.batch([
      { sql: 'DELETE FROM api_key_usage WHERE key_id IN (SELECT id FROM api_keys WHERE account_id = ?)', params: [id] },
      ...['api_keys', 'api_usage', 'sessions', 'account_tokens', 'recovery_codes'].map((table) => ({ sql: `DELETE FROM ${table} WHERE account_id = ?`, params: [id] })),
      // Its webhooks (webhooks.account_id references accounts) with their watches and every delivery, pending or not.
      { sql: 'DELETE FROM webhook_watches WHERE hook_id IN (SELECT id FROM webhooks WHERE account_id = ?)', params: [id] },
      { sql: 'DELETE FROM webhook_deliveries WHERE account_id = ?', params: [id] },
      { sql: 'DELETE FROM webhooks WHERE account_id = ?', params: [id] },
      { sql: 'DELETE FROM accounts WHERE id = ?', params: [id] },
    ]);
    return counts[counts.length - 1] === 1;
  }

  async addKey(key: NewApiKey): Promise<ApiKeyRecord> {
    await this.sql.batch([this.insertKey(key)]);
    return (await this.findKeyByPrefix(key.prefix))!;
  }

  async rotateKey(oldKeyId: number, key: NewApiKey, at: number, oldKeyExpiresAt?: number): Promise<ApiKeyRecord> {
    const retire: Statement = oldKeyExpiresAt !== undefined && oldKeyExpiresAt > at
      ? { sql: 'UPDATE api_keys SET expires_at = ? WHERE id = ? AND revoked_at IS NULL AND expires_at IS NULL', params: [oldKeyExpiresAt, oldKeyId] }
      : { sql: 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', params: [at, oldKeyId] };
    await this.sql.batch([retire, this.insertKey(key)]);
    return (await this.findKeyByPrefix(key.prefix))!;
  }

  async findKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.sql.all('SELECT * FROM api_keys WHERE prefix = ?', [prefix]);
    return row ? toKey(row) : null;
  }

  async listKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (await this.sql.all('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id', [accountId])).map(toKey);
  }

  async revokeKey(keyId: number, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, keyId])) === 1;
  }

  async addKeyUsage(increments: readonly KeyUsageIncrement[], at: number): Promise<void> {
    if (increments.length === 0) return;
    const keys = [...new Set(increments.map((i) => i.keyId))];
    await this.sql.batch([
      // A use without a count (account_info) only moves last_used_at.
      ...increments.filter((i) => i.count > 0).map((i) => ({
        sql: 'INSERT INTO api_key_usage (key_id, day, count) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET count = api_key_usage.count + excluded.count',
        params: [i.keyId, i.day, i.count],
      })),
      ...keys.map((id) => ({ sql: 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', params: [at, id, at] })),
    ]);
  }

  async getKeyUsage(keyIds: readonly number[], day: string): Promise<number[]> {
    const counts: number[] = [];
    for (const id of keyIds) {
      const [row] = await this.sql.all('SELECT count FROM api_key_usage WHERE key_id = ? AND day = ?', [id, day]);
      counts.push(row ? int(row['count']) : 0);
    }
    return counts;
  }

  async listUsage(fromDay: string, toDay: string): Promise<UsageRow[]> {
    const rows = await this.sql.all('SELECT account_id, day, count FROM api_usage WHERE day >= ? AND day <= ? ORDER BY account_id, day', [fromDay, toDay]);
    return rows.map((r) => ({ accountId: int(r['account_id']), day: String(r['day']), count: int(r['count']) }));
  }

  async pruneUsage(beforeDay: string): Promise<number> {
    const counts = await this.sql.batch(['api_usage', 'api_key_usage'].map((table) => ({ sql: `DELETE FROM ${table} WHERE day < ?`, params: [beforeDay] })));
    return counts.reduce((a, b) => a + b, 0);
  }

  async setPlan(name: string, maxDailyRequests: number, at: number, maxConcurrentRequests?: number): Promise<PlanRecord> {
    // A null concurrency keeps an existing plan's value and gives a new plan 0 (no limit); the CAST gives the null a type.
    const [row] = await this.sql.all(
      'INSERT INTO plans (name, max_daily_requests, max_concurrent_requests, updated_at) VALUES (?, ?, COALESCE(CAST(? AS BIGINT), 0), ?) ' +
        'ON CONFLICT (name) DO UPDATE SET max_daily_requests = excluded.max_daily_requests, ' +
        'max_concurrent_requests = COALESCE(CAST(? AS BIGINT), plans.max_concurrent_requests), updated_at = excluded.updated_at RETURNING *',
      [name, maxDailyRequests, maxConcurrentRequests ?? null, at, maxConcurrentRequests ?? null],
    );
    return toPlan(row!);
  }

  async getPlan(name: string): Promise<PlanRecord | null> {
    const [row] = await this.sql.all('SELECT * FROM plans WHERE name = ?', [name]);
    return row ? toPlan(row) : null;
  }

  async listPlans(): Promise<PlanRecord[]> {
    return (await this.sql.all('SELECT * FROM plans ORDER BY name', [])).map(toPlan);
  }

  private insertKey(key: NewApiKey): Statement {
    return {
      sql: 'INSERT INTO api_keys (account_id, prefix, key_hash, created_at, name) VALUES (?, ?, ?, ?, ?)',
      params: [key.accountId, key.prefix, bytes(key.hash), key.createdAt, key.name ?? null],
      unique: prefixTaken(key.prefix),
    };
  }

  private async oneAccount(sql: string, params: SqlValue[]): Promise<AccountRecord | null> {
    const [row] = await this.sql.all(sql, params);
    return row ? toAccount(row) : null;
  }
}
