/** What every PostgreSQL module of one network needs: ChainNet, its plans run with await on a pool or a client. */
import type { NetworkId } from '../../../core/domain/network.js';
import { ChainNet } from '../../common/chain-net.js';
import type { ScriptKeys } from '../../common/chain-writes/script-keys.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { POSTGRES_DIALECT } from '../../common/sql/sql-dialect.js';
import { runPostgres } from '../connection/postgres-plans.js';
import type { Queryable } from '../connection/postgres-sql.js';

export class PgNet extends ChainNet {
  constructor(id: NetworkId, options: ChainStoreOptions = {}) {
    super(id, POSTGRES_DIALECT, options);
  }

  async keys(db: Queryable): Promise<ScriptKeys> {
    return this.loadedKeys ?? runPostgres(db, this.keysPlan());
  }
}
