import type Database from 'better-sqlite3';

/** Prepares each SQL text once per connection: preparing dominates the cost of small statements. */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }
}

/**
 * A page's LIMIT and OFFSET as bound values the query planner does not look at. SQLite's planner reads a bound
 * `LIMIT ?` (and OFFSET) to choose its plan, which marks the statement to be re-prepared whenever that parameter is
 * bound again: every call parsed and planned its SQL anew (about a third of an address page's cost on the 100k-tx
 * bench chain). `? + 0` is an expression the planner does not evaluate, so the prepared plan is kept. Binds (limit,
 * offset) in that order.
 */
export const LIMIT_OFFSET = 'LIMIT ? + 0 OFFSET ? + 0';

/** The connection reads every integer as bigint (values may exceed 2^53); small ones are narrowed here. */
export function num(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : (value as number);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

export function big(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(value as string | number);
}

export type Row = Record<string, unknown>;
