/**
 * Multi-row INSERT for bulk writes: one statement step per ROWS_PER_STATEMENT rows instead of one per row
 * (the per-call cost of better-sqlite3 dominates narrow rows). The parameter array is reused between chunks.
 */
import type Database from 'better-sqlite3';
import type { Statements } from '../connection/sqlite-statements.js';

const ROWS_PER_STATEMENT = 64;

export class BulkInsert {
  private readonly params: unknown[];
  private rows = 0;
  private full: Database.Statement | null = null;

  /** `head` is everything before VALUES (e.g. "INSERT INTO t (a, b)"), `tail` anything after the value lists. */
  constructor(
    private readonly st: Statements,
    private readonly head: string,
    private readonly columns: number,
    private readonly tail = '',
  ) {
    this.params = new Array<unknown>(columns * ROWS_PER_STATEMENT);
  }

  /** Offset in `values` where the next row's columns go; flushes a full chunk first. */
  next(): number {
    if (this.rows === ROWS_PER_STATEMENT) {
      this.full ??= this.statement(ROWS_PER_STATEMENT);
      this.full.run(this.params);
      this.rows = 0;
    }
    return this.rows++ * this.columns;
  }

  get values(): unknown[] {
    return this.params;
  }

  /** Writes the rows still buffered. */
  finish(): void {
    if (this.rows === 0) return;
    const params = this.rows === ROWS_PER_STATEMENT ? this.params : this.params.slice(0, this.rows * this.columns);
    this.statement(this.rows).run(params);
    this.rows = 0;
  }

  private statement(rows: number): Database.Statement {
    const tuple = `(${new Array<string>(this.columns).fill('?').join(', ')})`;
    return this.st.get(`${this.head} VALUES ${new Array<string>(rows).fill(tuple).join(', ')}${this.tail}`);
  }
}
