/** PostgreSQL v3 accounts: plans and per-day usage counts here; accounts and keys in the shared SqlAccountMethods. */
import type pg from 'pg';
import type { AccountStore, PlanRecord, UsageIncrement } from '../../core/store/account-store.js';
import { toPlan } from '../common/accounts/account-rows.js';
import { SqlAccountMethods } from '../common/accounts/sql-account-methods.js';
import { PostgresRunner } from './postgres-runner.js';
import { num, one, rows } from './connection/postgres-sql.js';

export class PostgresAccounts extends SqlAccountMethods implements AccountStore {
  constructor(private readonly pool: pg.Pool) {
    super(new PostgresRunner(pool));
  }

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
}
