/**
 * Store logic written once for both engines, as the statements it needs: a plan is a generator that yields each
 * statement (`?` placeholders, SQL both engines read) and is answered with its rows. Each engine only runs plans: the
 * SQLite driver answers synchronously (so one answer runs whole, in one read transaction, with nothing else between
 * its statements), the PostgreSQL driver with `await` (numbering the placeholders). This is soketi's HorizontalAdapter
 * idea: the logic once in a base, each transport only its transport.
 *
 * Row values come in either engine's shape (SQLite: bigint for every integer, 0/1 for flags; PostgreSQL: int8 and
 * NUMERIC as strings, booleans): read them with the helpers below, which take both.
 */

export type Row = Record<string, unknown>;

/** One statement of a plan. `write`: it returns no rows; the answer is one row `{ changes }`. */
export interface Need {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly write?: true;
}

export type Plan<T> = Generator<Need, T, Row[]>;

/** The rows of a SELECT (or of a statement with RETURNING). */
export function* rows(sql: string, params: readonly unknown[] = []): Plan<Row[]> {
  return yield { sql, params };
}

/** The first row, or undefined. */
export function* first(sql: string, params: readonly unknown[] = []): Plan<Row | undefined> {
  return (yield { sql, params })[0];
}

/** Runs a statement that returns no rows; the number of rows it changed. */
export function* exec(sql: string, params: readonly unknown[] = []): Plan<number> {
  return Number((yield { sql, params, write: true })[0]?.changes ?? 0);
}

/** Runs a plan with a synchronous statement runner (SQLite). */
export function runPlanSync<T>(plan: Plan<T>, answer: (need: Need) => Row[]): T {
  for (let step = plan.next(); ; step = plan.next(answer(step.value))) if (step.done) return step.value;
}

/** Runs a plan with an asynchronous statement runner (PostgreSQL). */
export async function runPlan<T>(plan: Plan<T>, answer: (need: Need) => Promise<Row[]>): Promise<T> {
  for (let step = plan.next(); ; step = plan.next(await answer(step.value))) if (step.done) return step.value;
}

/** An integer column of either engine (SQLite bigint or number, PostgreSQL int8 string), known to be small. */
export function num(value: unknown): number {
  return Number(value);
}

/** An exact integer column of either engine (SQLite bigint or decimal text, PostgreSQL int8 or NUMERIC string). */
export function big(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(value as string | number);
}

/** A flag column of either engine (SQLite 0/1, PostgreSQL boolean). */
export function bool(value: unknown): boolean {
  return value === true || (value !== false && value !== null && value !== undefined && Number(value) !== 0);
}
