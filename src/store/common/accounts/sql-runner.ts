/**
 * The few ways the account and sign-in tables are used, so one implementation of them serves both engines:
 * each driver runs the same SQL text (with `?` placeholders, numbered for PostgreSQL by `numbered`), with the
 * same parameter types (numbers, strings, Buffers, null; flags as 0/1, which PostgreSQL reads as booleans).
 */

export type SqlValue = number | string | Buffer | null;
export type SqlRow = Record<string, unknown>;

/** Thrown by a runner when a statement hits a UNIQUE or PRIMARY KEY constraint. */
export class UniqueViolation extends Error {}

export interface Statement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  /** When set, the statement must change exactly one row, else this is thrown and the transaction rolled back. */
  readonly expectOne?: Error;
  /** When set, a unique violation in this statement throws this instead of UniqueViolation. */
  readonly unique?: Error;
}

export interface SqlRunner {
  /** Rows of a SELECT (or of a statement with RETURNING). */
  all(sql: string, params: readonly SqlValue[]): Promise<SqlRow[]>;
  /** Runs a statement; resolves the number of rows it changed. */
  run(sql: string, params: readonly SqlValue[]): Promise<number>;
  /** Runs the statements in order in one transaction; resolves each one's changed-row count. */
  batch(statements: readonly Statement[]): Promise<number[]>;
}

/** Checks one statement's changed-row count against its expectation (runners call this inside the transaction). */
export function checkChanges(statement: Statement, changes: number): number {
  if (statement.expectOne && changes !== 1) throw statement.expectOne;
  return changes;
}

/** Maps a runner's UniqueViolation to the statement's own error. */
export function uniqueError(statement: Statement, error: unknown): unknown {
  return error instanceof UniqueViolation && statement.unique ? statement.unique : error;
}

const numberedCache = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the shared SQL has no `?` inside literals). */
export function numbered(sql: string): string {
  let text = numberedCache.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numberedCache.set(sql, text);
  }
  return text;
}

export const flag = (value: boolean): number => (value ? 1 : 0);
export const bytes = (value: Uint8Array): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength);
