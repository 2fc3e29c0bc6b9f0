/**
 * Runs the shared plans (common/sql/sql-plan.ts) on PostgreSQL: `?` placeholders numbered, each statement named so a
 * connection parses and plans its text once (the texts are fixed per network: see preparedRows).
 */
import { numbered } from '../../common/sql/sql-runner.js';
import { runPlan, type Plan, type Row } from '../../common/sql/sql-plan.js';
import { preparedResult, type Queryable } from './postgres-sql.js';

/** Runs a plan on a pool (each statement on whichever connection is free) or on one client (inside its transaction). */
export function runPostgres<T>(db: Queryable, plan: Plan<T>): Promise<T> {
  return runPlan(plan, async (need): Promise<Row[]> => {
    const result = await preparedResult(db, numbered(need.sql), [...need.params]);
    return need.write ? [{ changes: result.rowCount ?? 0 }] : (result.rows as Row[]);
  });
}
