/** The script-set reads (a wallet's addresses) for SQLite: the shared plans, each answered inside one read transaction. */
import { PlannedScriptSetReader } from '../../common/chain-reads/planned-script-set-reader.js';
import { runPlanSync, type Plan, type SetContext } from '../../common/chain-reads/script-set-plans.js';
import { scriptSetSql, SQLITE_SET } from '../../common/chain-reads/script-set-sql.js';
import type { SqliteNet } from './sqlite-net.js';
import type { Row } from '../connection/sqlite-statements.js';

export class SqliteScriptSetReader extends PlannedScriptSetReader {
  constructor(private readonly n: SqliteNet) {
    super();
  }

  /**
   * One snapshot for the whole answer, and the file and WAL locks taken once (as SqliteAddressReader.read). The plan
   * runs synchronously inside (async only so that a throw becomes a rejection), so no other caller's statement runs
   * within the transaction.
   */
  protected async run<T>(plan: (c: SetContext) => Plan<T>): Promise<T> {
    const { st } = this.n;
    const c: SetContext = { sql: scriptSetSql(this.n.t, SQLITE_SET), dialect: SQLITE_SET, keys: this.n.keys, net: this.n.net, memo: this.memo };
    const all = (sql: string, params: readonly unknown[]): Row[] => st.get(sql).all(...params) as Row[];
    if (st.db.inTransaction) return runPlanSync(plan(c), all);
    st.get('BEGIN').run();
    try {
      return runPlanSync(plan(c), all);
    } finally {
      if (st.db.inTransaction) st.get('COMMIT').run();
    }
  }
}
