/** SQLite v3 accounts: plans, accounts, key hashes and per-day usage counts. */
import { InvalidArgumentError } from '../../core/errors.js';
import type { AccountRecord, AccountStore, ApiKeyRecord, NewApiKey, PlanRecord, UsageIncrement } from '../../core/store.js';
import { ACCOUNT_SELECT, toAccount, toKey, toPlan } from '../common/account-rows.js';
import { num, type Row, type Statements } from './sqlite-statements.js';

export class SqliteAccounts implements AccountStore {
  constructor(private readonly st: Statements) {}

  async setPlan(name: string, maxDailyRequests: number, at: number, maxConcurrentRequests?: number): Promise<PlanRecord> {
    // A null concurrency keeps an existing plan's value and gives a new plan 0 (no limit).
    const row = this.st.get(
      'INSERT INTO plans (name, max_daily_requests, max_concurrent_requests, updated_at) VALUES (@name, @daily, COALESCE(@concurrent, 0), @at) ' +
        'ON CONFLICT (name) DO UPDATE SET max_daily_requests = excluded.max_daily_requests, ' +
        'max_concurrent_requests = COALESCE(@concurrent, plans.max_concurrent_requests), updated_at = excluded.updated_at RETURNING *',
    ).get({ name, daily: maxDailyRequests, concurrent: maxConcurrentRequests ?? null, at }) as Row;
    return toPlan(row);
  }

  async getPlan(name: string): Promise<PlanRecord | null> {
    const row = this.st.get('SELECT * FROM plans WHERE name = ?').get(name) as Row | undefined;
    return row ? toPlan(row) : null;
  }

  async listPlans(): Promise<PlanRecord[]> {
    return (this.st.get('SELECT * FROM plans ORDER BY name').all() as Row[]).map(toPlan);
  }

  async createAccount(input: { email: string; plan: string; createdAt: number; periodEndsAt: number; willRenew: boolean }): Promise<AccountRecord> {
    const email = input.email.toLowerCase();
    const id = this.st.db.transaction((): number => {
      if (!this.st.get('SELECT 1 FROM plans WHERE name = ?').get(input.plan)) throw new InvalidArgumentError('plan', `no plan named ${input.plan}`);
      if (this.st.get('SELECT 1 FROM accounts WHERE email = ?').get(email)) throw new InvalidArgumentError('email', `an account with email ${email} exists`);
      const result = this.st.get('INSERT INTO accounts (email, plan, created_at, period_ends_at, will_renew) VALUES (?, ?, ?, ?, ?)')
        .run(email, input.plan, input.createdAt, input.periodEndsAt, input.willRenew ? 1 : 0);
      return num(result.lastInsertRowid);
    }).immediate();
    return (await this.getAccount(id))!;
  }

  async getAccount(id: number): Promise<AccountRecord | null> {
    const row = this.st.get(`${ACCOUNT_SELECT} WHERE a.id = ?`).get(id) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const row = this.st.get(`${ACCOUNT_SELECT} WHERE a.email = ?`).get(email.toLowerCase()) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (this.st.get(`${ACCOUNT_SELECT} ORDER BY a.id`).all() as Row[]).map(toAccount);
  }

  async addKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.st.db.transaction(() => this.insertKey(key)).immediate();
  }

  async rotateKey(oldKeyId: number, key: NewApiKey, at: number): Promise<ApiKeyRecord> {
    return this.st.db.transaction(() => {
      this.st.get('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, oldKeyId);
      return this.insertKey(key);
    }).immediate();
  }

  async findKeyByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const row = this.st.get('SELECT * FROM api_keys WHERE prefix = ?').get(prefix) as Row | undefined;
    return row ? toKey(row) : null;
  }

  async listKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (this.st.get('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id').all(accountId) as Row[]).map(toKey);
  }

  async revokeKey(keyId: number, at: number): Promise<boolean> {
    return this.st.get('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, keyId).changes === 1;
  }

  async addUsage(increments: readonly UsageIncrement[]): Promise<number[]> {
    const add = this.st.get(
      'INSERT INTO api_usage (account_id, day, count) VALUES (?, ?, ?) ' +
        'ON CONFLICT (account_id, day) DO UPDATE SET count = count + excluded.count RETURNING count',
    );
    // One transaction: a flush is applied entirely or not at all, so a crash never counts half of it twice.
    return this.st.db.transaction(() => increments.map((i) => num((add.get(i.accountId, i.day, i.count) as Row).count))).immediate();
  }

  async getUsage(accountId: number, days: readonly string[]): Promise<number[]> {
    const read = this.st.get('SELECT count FROM api_usage WHERE account_id = ? AND day = ?');
    return days.map((day) => {
      const row = read.get(accountId, day) as Row | undefined;
      return row ? num(row.count) : 0;
    });
  }

  private insertKey(key: NewApiKey): ApiKeyRecord {
    if (this.st.get('SELECT 1 FROM api_keys WHERE prefix = ?').get(key.prefix)) throw new InvalidArgumentError('prefix', `key prefix ${key.prefix} is taken`);
    const result = this.st.get('INSERT INTO api_keys (account_id, prefix, key_hash, created_at) VALUES (?, ?, ?, ?)')
      .run(key.accountId, key.prefix, Buffer.from(key.hash), key.createdAt);
    return { id: num(result.lastInsertRowid), ...key, hash: new Uint8Array(key.hash), revokedAt: null };
  }
}
