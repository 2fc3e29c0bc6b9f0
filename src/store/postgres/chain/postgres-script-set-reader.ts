/** The script-set reads (a wallet's addresses) for PostgreSQL: the shared plans, each statement named (planned once per connection). */
import { PlannedScriptSetReader } from '../../common/chain-reads/planned-script-set-reader.js';
import { runPlan, type Plan, type SetContext } from '../../common/chain-reads/script-set-plans.js';
import { POSTGRES_SET, scriptSetSql } from '../../common/chain-reads/script-set-sql.js';
import { numbered } from '../../common/sql/sql-runner.js';
import type { PgNet } from './postgres-net.js';
import { preparedRows, type Queryable } from '../connection/postgres-sql.js';

export class PostgresScriptSetReader extends PlannedScriptSetReader {
  constructor(private readonly db: Queryable, private readonly n: PgNet) {
    super();
  }

  protected async run<T>(plan: (c: SetContext) => Plan<T>): Promise<T> {
    const c: SetContext = { sql: scriptSetSql(this.n.t, POSTGRES_SET), dialect: POSTGRES_SET, keys: await this.n.keys(this.db), net: this.n.net, memo: this.memo };
    return runPlan(plan(c), (sql, params) => preparedRows(this.db, numbered(sql), [...params]));
  }
}
