/** SQLite v3 accounts: plans and per-day usage counts here; accounts and keys in the shared SqlAccountMethods. */
import type { AccountStore, PlanRecord, UsageIncrement } from '../../core/store/account-store.js';
import { toPlan } from '../common/accounts/account-rows.js';
import { SqlAccountMethods } from '../common/accounts/sql-account-methods.js';
import { SqliteRunner } from './sqlite-runner.js';
import { num, type Row, type Statements } from './connection/sqlite-statements.js';

export class SqliteAccounts extends SqlAccountMethods implements AccountStore {
  constructor(private readonly st: Statements) {
    super(new SqliteRunner(st));
  }

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
}
