/** What every SQLite module of one network needs: the statements cache, the network's code, tables and script keys. */
import { StoreError } from '../../core/errors.js';
import type { NetworkId } from '../../core/network.js';
import { chainTables, type ChainTables } from '../common/chain-tables.js';
import { networkCode } from '../common/network-codes.js';
import { ScriptKeys } from '../common/script-keys.js';
import type { Row, Statements } from './sqlite-statements.js';

export class SqliteNet {
  /** The network's code in the shared tables (tips, bulk_loads). */
  readonly net: number;
  readonly t: ChainTables;
  private scriptKeys: ScriptKeys | null = null;

  constructor(readonly st: Statements, readonly id: NetworkId, private readonly scriptKeyBits = 53) {
    this.net = networkCode(id);
    this.t = chainTables(id);
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
