/** SqlRunner over the store's one better-sqlite3 connection (synchronous underneath; batches are IMMEDIATE transactions). */
import { checkChanges, uniqueError, UniqueViolation, type SqlRow, type SqlRunner, type SqlValue, type Statement } from '../common/accounts/sql-runner.js';
import type { Statements } from './connection/sqlite-statements.js';

const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

function mapError(error: unknown): unknown {
  return UNIQUE_CODES.has((error as { code?: string }).code ?? '') ? new UniqueViolation((error as Error).message) : error;
}

export class SqliteRunner implements SqlRunner {
  constructor(private readonly st: Statements) {}

  async all(sql: string, params: readonly SqlValue[]): Promise<SqlRow[]> {
    try {
      return this.st.get(sql).all(...params) as SqlRow[];
    } catch (error) {
      throw mapError(error);
    }
  }

  async run(sql: string, params: readonly SqlValue[]): Promise<number> {
    try {
      return this.st.get(sql).run(...params).changes;
    } catch (error) {
      throw mapError(error);
    }
  }

  async batch(statements: readonly Statement[]): Promise<number[]> {
    return this.st.db.transaction(() =>
      statements.map((s) => {
        let changes: number;
        try {
          changes = this.st.get(s.sql).run(...s.params).changes;
        } catch (error) {
          throw uniqueError(s, mapError(error));
        }
        return checkChanges(s, changes);
      }),
    ).immediate();
  }
}
