/** What every PostgreSQL module of one network needs: the network's code, its tables and its script keys. */
import { StoreError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import { chainTables, type ChainTables } from '../../common/schema/chain-tables.js';
import { networkCode } from '../../common/schema/network-codes.js';
import { ScriptKeys } from '../../common/chain-writes/script-keys.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { one, type Queryable } from '../connection/postgres-sql.js';

export class PgNet {
  /** The network's code in the shared tables (tips, bulk_loads) and its advisory lock. */
  readonly net: number;
  readonly t: ChainTables;
  /** False with raw_txs = "node": confirmed txs' raw bytes are not written. */
  readonly storesRaws: boolean;
  private readonly scriptKeyBits: number;
  private scriptKeys: ScriptKeys | null = null;

  constructor(readonly id: NetworkId, options: ChainStoreOptions = {}) {
    this.net = networkCode(id);
    this.t = chainTables(id);
    this.scriptKeyBits = options.scriptKeyBits ?? 53;
    this.storesRaws = options.rawTxs !== 'node';
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
