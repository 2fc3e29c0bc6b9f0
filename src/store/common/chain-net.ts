/**
 * What every module of one network needs, whichever the engine: the network's code in the shared tables (tips,
 * bulk_loads, sync_status; PostgreSQL's advisory lock), its tables, whether confirmed txs' raw bytes are stored, and
 * its script keys. Each engine's net adds its connection and how it runs a plan (sql-plan.ts).
 */
import { StoreError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import { ChainReadPlans } from './chain-reads/chain-read-plans.js';
import { ScriptKeys, storedKeyBits } from './chain-writes/script-keys.js';
import { chainTables, type ChainTables } from './schema/chain-tables.js';
import { networkCode } from './schema/network-codes.js';
import type { ChainStoreOptions } from './schema/store-options.js';
import type { SqlDialect } from './sql/sql-dialect.js';
import { first, type Plan } from './sql/sql-plan.js';

export abstract class ChainNet {
  readonly net: number;
  readonly t: ChainTables;
  /** False with raw_txs = "node": confirmed txs' raw bytes are not written. */
  readonly storesRaws: boolean;
  /** The reads by txid, block and mempool, as plans (the engine runs them). */
  readonly reads: ChainReadPlans;
  /** Tests narrow the key space (collisions); otherwise the store's own width (meta.script_key_bits). */
  private readonly scriptKeyBits: number | undefined;
  private scriptKeys: ScriptKeys | null = null;

  constructor(readonly id: NetworkId, readonly dialect: SqlDialect, options: ChainStoreOptions = {}) {
    this.net = networkCode(id);
    this.t = chainTables(id);
    this.scriptKeyBits = options.scriptKeyBits;
    this.storesRaws = options.rawTxs !== 'node';
    this.reads = new ChainReadPlans(this.t, dialect);
  }

  /** The script keys once read (null before). */
  protected get loadedKeys(): ScriptKeys | null {
    return this.scriptKeys;
  }

  /** The script keys, read on first use (the shared plans' way to them). */
  *keysOfStore(): Plan<ScriptKeys> {
    return yield* this.keysPlan();
  }

  /** Read on first use: the salt exists once the store is migrated, which may be after this object is made. */
  protected *keysPlan(): Plan<ScriptKeys> {
    if (!this.scriptKeys) {
      const row = yield* first("SELECT value FROM meta WHERE key = 'script_key_salt'");
      if (!row) throw new StoreError('store not migrated: no script key salt');
      const bits = this.scriptKeyBits ?? storedKeyBits((yield* first("SELECT value FROM meta WHERE key = 'script_key_bits'"))?.value);
      this.scriptKeys = new ScriptKeys(Buffer.from(row.value as string, 'hex'), bits);
    }
    return this.scriptKeys;
  }
}
