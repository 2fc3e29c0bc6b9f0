/** SQLite v3 accounts: the per-day usage counts here; the rest in the shared SqlAccountMethods. */
import type { AccountStore, UsageIncrement } from '../../core/store/account-store.js';
import { SqlAccountMethods } from '../common/accounts/sql-account-methods.js';
import { SqliteRunner } from './sqlite-runner.js';
import { num, type Row, type Statements } from './connection/sqlite-statements.js';

export class SqliteAccounts extends SqlAccountMethods implements AccountStore {
  constructor(private readonly st: Statements) {
    super(new SqliteRunner(st));
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
