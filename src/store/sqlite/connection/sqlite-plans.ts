/**
 * Runs the shared plans (common/sql/sql-plan.ts) on the SQLite connection: synchronously, each statement prepared
 * once (Statements). Parameters must be what better-sqlite3 binds (numbers, bigints, strings, Buffers, null: flags
 * as 0/1).
 */
import { runPlanSync, type Need, type Plan, type Row } from '../../common/sql/sql-plan.js';
import type { Statements } from './sqlite-statements.js';

function answer(st: Statements, need: Need): Row[] {
  const statement = st.get(need.sql);
  if (need.write) return [{ changes: statement.run(...need.params).changes }];
  return statement.all(...need.params) as Row[];
}

/** Runs a plan inside whatever transaction the caller has (a write's, or none). */
export function runSqlite<T>(st: Statements, plan: Plan<T>): T {
  return runPlanSync(plan, (need) => answer(st, need));
}

/**
 * Runs one answer's statements in one read transaction: the same snapshot for all of them, and the file and WAL
 * locks taken once instead of once per statement (system calls that cost more than a small statement itself).
 * Synchronous inside, so no other caller's statement can run within it. Inside a transaction already: as it is.
 */
export function inReadTransaction<T>(st: Statements, answerNow: () => T): T {
  if (st.db.inTransaction) return answerNow();
  st.get('BEGIN').run();
  try {
    return answerNow();
  } finally {
    if (st.db.inTransaction) st.get('COMMIT').run();
  }
}

/** Runs a read plan in one read transaction (inReadTransaction). */
export function readSqlite<T>(st: Statements, plan: Plan<T>): T {
  return inReadTransaction(st, () => runSqlite(st, plan));
}
