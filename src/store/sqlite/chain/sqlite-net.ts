/** What every SQLite module of one network needs: ChainNet and the statements cache, plans run synchronously. */
import type { NetworkId } from '../../../core/domain/network.js';
import { ChainNet } from '../../common/chain-net.js';
import type { ScriptKeys } from '../../common/chain-writes/script-keys.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { SQLITE_DIALECT } from '../../common/sql/sql-dialect.js';
import type { Plan } from '../../common/sql/sql-plan.js';
import { runSqlite } from '../connection/sqlite-plans.js';
import type { Statements } from '../connection/sqlite-statements.js';

export class SqliteNet extends ChainNet {
  constructor(readonly st: Statements, id: NetworkId, options: ChainStoreOptions = {}) {
    super(id, SQLITE_DIALECT, options);
  }

  /** Asked for every script of a bulk batch: the plan runs once. */
  get keys(): ScriptKeys {
    return this.loadedKeys ?? this.run(this.keysPlan());
  }

  /** Runs a plan in whatever transaction is open (a write's, or none). */
  run<T>(plan: Plan<T>): T {
    return runSqlite(this.st, plan);
  }
}
