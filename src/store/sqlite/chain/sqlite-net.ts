/** What every SQLite module of one network needs: the statements cache, the network's code, tables and script keys. */
import { StoreError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import { chainTables, type ChainTables } from '../../common/schema/chain-tables.js';
import { networkCode } from '../../common/schema/network-codes.js';
import { ScriptKeys } from '../../common/chain-writes/script-keys.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import type { Row, Statements } from '../connection/sqlite-statements.js';

export class SqliteNet {
  /** The network's code in the shared tables (tips, bulk_loads). */
  readonly net: number;
  readonly t: ChainTables;
  /** False with raw_txs = "node": confirmed txs' raw bytes are not written. */
  readonly storesRaws: boolean;
  private readonly scriptKeyBits: number;
  private scriptKeys: ScriptKeys | null = null;

  constructor(readonly st: Statements, readonly id: NetworkId, options: ChainStoreOptions = {}) {
    this.net = networkCode(id);
    this.t = chainTables(id);
    this.scriptKeyBits = options.scriptKeyBits ?? 53;
    this.storesRaws = options.rawTxs !== 'node';
  }

  /** Read on first use: the salt exists once the store is migrated, which may be after this object is made. */
  get keys(): ScriptKeys {
    if (!this.scriptKeys) {
      const row = this.st.get("SELECT value FROM meta WHERE key = 'script_key_salt'").get() as Row | undefined;
      if (!row) throw new StoreError('store not migrated: no script key salt');
      this.scriptKeys = new ScriptKeys(Buffer.from(row.value as string, 'hex'), this.scriptKeyBits);
    }
    return this.scriptKeys;
  }
}
