/**
 * Multi-row INSERT for bulk writes: one statement step per ROWS_PER_STATEMENT rows instead of one per row
 * (the per-call cost of better-sqlite3 dominates narrow rows). The parameter array is reused between chunks.
 */
import type Database from 'better-sqlite3';
import type { OutputColumns } from '../../common/chain-writes/block-rows.js';
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

/** The outputs of a batch (a block batch or a bulk load's), in their column order. */
export function insertOutputs(st: Statements, table: string, out: OutputColumns): void {
  const output = new BulkInsert(st, `INSERT INTO ${table} (id, vout, value, script, spent_by, spent_vin)`, 6);
  const v = output.values;
  for (let i = 0; i < out.id.length; i++) {
    const o = output.next();
    v[o] = out.id[i]; v[o + 1] = out.vout[i]; v[o + 2] = out.value[i]; v[o + 3] = out.script[i]; v[o + 4] = out.spentBy[i]; v[o + 5] = out.spentVin[i];
  }
  output.finish();
}
