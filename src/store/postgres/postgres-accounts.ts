/** PostgreSQL v3 accounts: plans, accounts, key hashes and per-day usage counts (same semantics as SQLite). */
import type pg from 'pg';
import { InvalidArgumentError } from '../../core/errors.js';
import type { AccountRecord, AccountStore, ApiKeyRecord, NewApiKey, PlanRecord, UsageIncrement } from '../../core/store.js';
import { ACCOUNT_SELECT, toAccount, toKey, toPlan } from '../common/account-rows.js';
import { num, one, rows, type Queryable } from './postgres-sql.js';

/** Unique-constraint violation: the other writer won the race for the email or prefix. */
const UNIQUE_VIOLATION = '23505';

function isUnique(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}

export class PostgresAccounts implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async setPlan(name: string, maxDailyRequests: number, at: number, maxConcurrentRequests?: number): Promise<PlanRecord> {
    // A null concurrency keeps an existing plan's value and gives a new plan 0 (no limit).
    const row = await one(
      this.pool,
      'INSERT INTO plans (name, max_daily_requests, max_concurrent_requests, updated_at) VALUES ($1, $2, COALESCE($3::bigint, 0), $4) ' +
        'ON CONFLICT (name) DO UPDATE SET max_daily_requests = excluded.max_daily_requests, ' +
        'max_concurrent_requests = COALESCE($3::bigint, plans.max_concurrent_requests), updated_at = excluded.updated_at RETURNING *',
      [name, maxDailyRequests, maxConcurrentRequests ?? null, at],
    );
    return toPlan(row!);
  }

  async getPlan(name: string): Promise<PlanRecord | null> {
    const row = await one(this.pool, 'SELECT * FROM plans WHERE name = $1', [name]);
    return row ? toPlan(row) : null;
  }

  async listPlans(): Promise<PlanRecord[]> {
    return (await rows(this.pool, 'SELECT * FROM plans ORDER BY name')).map(toPlan);
  }

  async createAccount(input: { email: string; plan: string; createdAt: number; periodEndsAt: number; willRenew: boolean }): Promise<AccountRecord> {
    const email = input.email.toLowerCase();
    if (!(await this.getPlan(input.plan))) throw new InvalidArgumentError('plan', `no plan named ${input.plan}`);
    try {
      const row = await one(
        this.pool,
        'INSERT INTO accounts (email, plan, created_at, period_ends_at, will_renew) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [email, input.plan, input.createdAt, input.periodEndsAt, input.willRenew],
      );
      return (await this.getAccount(num(row!.id)))!;
    } catch (error) {
      if (isUnique(error)) throw new InvalidArgumentError('email', `an account with email ${email} exists`);
      throw error;
    }
  }

  async getAccount(id: number): Promise<AccountRecord | null> {
    const row = await one(this.pool, `${ACCOUNT_SELECT} WHERE a.id = $1`, [id]);
    return row ? toAccount(row) : null;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const row = await one(this.pool, `${ACCOUNT_SELECT} WHERE a.email = $1`, [email.toLowerCase()]);
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (await rows(this.pool, `${ACCOUNT_SELECT} ORDER BY a.id`)).map(toAccount);
  }

  async addKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.insertKey(this.pool, key);
  }

  async rotateKey(oldKeyId: number, key: NewApiKey, at: number): Promise<ApiKeyRecord> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, oldKeyId]);
      const added = await this.insertKey(client, key);
      await client.query('COMMIT');
      return added;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async findKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const row = await one(this.pool, 'SELECT * FROM api_keys WHERE prefix = $1', [prefix]);
    return row ? toKey(row) : null;
  }

  async listKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (await rows(this.pool, 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id', [accountId])).map(toKey);
  }

  async revokeKey(keyId: number, at: number): Promise<boolean> {
    const result = await this.pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, keyId]);
    return result.rowCount === 1;
  }

  async addUsage(increments: readonly UsageIncrement[]): Promise<number[]> {
    if (increments.length === 0) return [];
    // ON CONFLICT may touch a row once per statement: merge repeats of one (account, day) first.
    const merged = new Map<string, UsageIncrement>();
    for (const i of increments) {
      const key = `${i.accountId}:${i.day}`;
      merged.set(key, { ...i, count: (merged.get(key)?.count ?? 0) + i.count });
    }
    const batch = [...merged.values()];
    // One statement, hence one transaction: a flush is applied entirely or not at all.
    const result = await rows(
      this.pool,
      'INSERT INTO api_usage (account_id, day, count) SELECT a, d, c FROM unnest($1::bigint[], $2::text[], $3::bigint[]) WITH ORDINALITY AS t(a, d, c, n) ' +
        'ORDER BY n ON CONFLICT (account_id, day) DO UPDATE SET count = api_usage.count + excluded.count RETURNING account_id, day, count',
      [batch.map((i) => i.accountId), batch.map((i) => i.day), batch.map((i) => i.count)],
    );
    const totals = new Map(result.map((r) => [`${num(r.account_id)}:${String(r.day)}`, num(r.count)]));
    return increments.map((i) => totals.get(`${i.accountId}:${i.day}`) ?? 0);
  }

  async getUsage(accountId: number, days: readonly string[]): Promise<number[]> {
    const found = await rows(this.pool, 'SELECT day, count FROM api_usage WHERE account_id = $1 AND day = ANY($2::text[])', [accountId, [...days]]);
    const byDay = new Map(found.map((r) => [String(r.day), num(r.count)]));
    return days.map((d) => byDay.get(d) ?? 0);
  }

  private async insertKey(db: Queryable, key: NewApiKey): Promise<ApiKeyRecord> {
    try {
      const row = await one(db, 'INSERT INTO api_keys (account_id, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id', [
        key.accountId, key.prefix, Buffer.from(key.hash), key.createdAt,
      ]);
      return { id: num(row!.id), ...key, hash: new Uint8Array(key.hash), revokedAt: null };
    } catch (error) {
      if (isUnique(error)) throw new InvalidArgumentError('prefix', `key prefix ${key.prefix} is taken`);
      throw error;
    }
  }
}
