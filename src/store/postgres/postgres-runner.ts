/** SqlRunner over the PostgreSQL pool: `?` placeholders numbered, batches in one transaction on one client. */
import type pg from 'pg';
import { checkChanges, numbered, uniqueError, UniqueViolation, type SqlRow, type SqlRunner, type SqlValue, type Statement } from '../common/accounts/sql-runner.js';

/** Unique-constraint violation (SQLSTATE). */
const UNIQUE_VIOLATION = '23505';

function mapError(error: unknown): unknown {
  return (error as { code?: string }).code === UNIQUE_VIOLATION ? new UniqueViolation((error as Error).message) : error;
}

export class PostgresRunner implements SqlRunner {
  constructor(private readonly pool: pg.Pool) {}

  async all(sql: string, params: readonly SqlValue[]): Promise<SqlRow[]> {
    try {
      return (await this.pool.query(numbered(sql), [...params])).rows as SqlRow[];
    } catch (error) {
      throw mapError(error);
    }
  }

  async run(sql: string, params: readonly SqlValue[]): Promise<number> {
    try {
      return (await this.pool.query(numbered(sql), [...params])).rowCount ?? 0;
    } catch (error) {
      throw mapError(error);
    }
  }

  async batch(statements: readonly Statement[]): Promise<number[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const counts: number[] = [];
      for (const s of statements) {
        let changes: number;
        try {
          changes = (await client.query(numbered(s.sql), [...s.params])).rowCount ?? 0;
        } catch (error) {
          throw uniqueError(s, mapError(error));
        }
        counts.push(checkChanges(s, changes));
      }
      await client.query('COMMIT');
      return counts;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
