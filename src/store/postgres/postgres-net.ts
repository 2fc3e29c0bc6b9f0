/** What every PostgreSQL module of one network needs: the network's code, its tables and its script keys. */
import { StoreError } from '../../core/errors.js';
import type { NetworkId } from '../../core/network.js';
import { chainTables, type ChainTables } from '../common/chain-tables.js';
import { networkCode } from '../common/network-codes.js';
import { ScriptKeys } from '../common/script-keys.js';
import { one, type Queryable } from './postgres-sql.js';

export class PgNet {
  /** The network's code in the shared tables (tips, bulk_loads) and its advisory lock. */
  readonly net: number;
  readonly t: ChainTables;
  private scriptKeys: ScriptKeys | null = null;

  constructor(readonly id: NetworkId, private readonly scriptKeyBits = 53) {
    this.net = networkCode(id);
    this.t = chainTables(id);
  }

  /** Read on first use: the salt exists once the store is migrated, which may be after this object is made. */
  async keys(db: Queryable): Promise<ScriptKeys> {
    if (!this.scriptKeys) {
      const row = await one(db, "SELECT value FROM meta WHERE key = 'script_key_salt'");
      if (!row) throw new StoreError('store not migrated: no script key salt');
      this.scriptKeys = new ScriptKeys(Buffer.from(row.value as string, 'hex'), this.scriptKeyBits);
    }
    return this.scriptKeys;
  }
}
