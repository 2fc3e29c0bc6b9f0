/** The SQLite ChainStore: one file, WAL so API readers never block the indexer, every network in the same tables. */
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from './connection/sqlite-binding.js';
import { WalCheckpointer } from './connection/sqlite-checkpointer.js';
import { StoreError } from '../../core/domain/errors.js';
import { NETWORK_IDS, type NetworkId } from '../../core/domain/network.js';
import type { RawTxMode } from '../../core/sources/raw-txs.js';
import { chainTables } from '../common/schema/chain-tables.js';
import { storedRawTxMode, type ChainStoreOptions } from '../common/schema/store-options.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { AuthStore } from '../../core/store/auth-store.js';
import type { EventLogStore } from '../../core/store/event-log-store.js';
import type { WebhookStore } from '../../core/store/webhook-store.js';
import type { MempoolSampleStore } from '../../core/store/mempool-sample-store.js';
import { SqlMempoolSamples } from '../common/mempool-samples/sql-mempool-samples.js';
import { SqlWebhookStore } from '../common/webhooks/sql-webhook-store.js';
import type { RawTxModeChange } from '../../core/store/chain-writes.js';
import type { NetworkStore } from '../../core/store/network-store.js';
import type { PriceStore } from '../../core/store/price-store.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import type { ChainStore } from '../../core/store/store.js';
import { migrationSql } from '../migrations/migration-files.js';
import { SqlAuthStore } from '../common/accounts/sql-auth-store.js';
import { SqlShortAddresses } from '../common/accounts/sql-short-addresses.js';
import { assertSupportedVersion, SCHEMA_VERSION } from '../common/schema/schema-version.js';
import { SqliteAccounts } from './sqlite-accounts.js';
import { SqliteNetworkStore } from './chain/sqlite-network-store.js';
import { PageReturner } from './connection/sqlite-page-return.js';
import { CacheSizer } from './connection/sqlite-cache-size.js';
import { SqliteEventLog } from './sqlite-event-log.js';
import { SqlitePrices } from './sqlite-prices.js';
import { SqliteRunner } from './sqlite-runner.js';
import { Statements, type Row } from './connection/sqlite-statements.js';

export interface SqliteStoreOptions extends ChainStoreOptions {
  /** File path, or ':memory:' for tests. */
  readonly path: string;
  readonly readonly?: boolean;
  /**
   * A worker thread of the process that holds the networks' writer locks (the initial load's): take none. The locks
   * are per process, and a second connection of the same process would be refused them.
   */
  readonly inWriterProcess?: boolean;
  /** Page cache of the connection in MiB (`[store] sqlite_cache_mb`); absent: sized to the index (sqlite-cache-size.ts). */
  readonly cacheMb?: number;
  /**
   * WAL checkpoints on a worker thread instead of in the commits of this connection (sqlite-checkpointer.ts): the
   * long-running service and indexer. Short-lived commands and tests keep SQLite's own.
   */
  readonly checkpointInBackground?: boolean;
  /** Told when the background checkpoints stopped (this connection checkpoints for itself from then on). */
  readonly onCheckpointFailure?: (error: Error) => void;
}

export class SqliteStore implements ChainStore {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly networks = new Map<NetworkId, SqliteNetworkStore>();
  private shorts: SqlShortAddresses | null = null;
  private accountStore: SqliteAccounts | null = null;
  private priceStore: SqlitePrices | null = null;
  private authStore: SqlAuthStore | null = null;
  private hooks: SqlWebhookStore | null = null;
  private samples: SqlMempoolSamples | null = null;
  private eventLog: SqliteEventLog | null = null;
  /** Gives free pages back after an initial load or a chain reset (null: read-only or in memory). */
  private readonly pageReturner: PageReturner | null;
  private readonly cacheSizer: CacheSizer;
  private readonly checkpointer: WalCheckpointer | null;

  constructor(private readonly options: SqliteStoreOptions) {
    this.db = openSqliteDatabase(options.path, { readonly: options.readonly ?? false });
    if (!options.readonly) {
      // A new file keeps a map of its pages so free ones can be given back (an initial load frees its staging tables'
      // pages at the end, about a quarter of the file). Only possible before the first table exists; see migrate().
      if (!this.db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get()) this.db.pragma('auto_vacuum = INCREMENTAL');
      this.db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode: a power loss may drop the last commits but never corrupts; the indexer re-syncs them.
      this.db.pragma('synchronous = NORMAL');
    }
    this.db.pragma('busy_timeout = 5000');
    // Statement journals (a multi-row INSERT or UPDATE inside a transaction saves each page it changes, so a failing
    // statement can be undone alone) go to memory instead of a temp file: 0.7-1 s of the 100k-tx initial sync.
    this.db.pragma('temp_store = MEMORY');
    // A bound, allocated as used: 128 MiB on a small index, more as a big one grows (sqlite-cache-size.ts).
    this.cacheSizer = new CacheSizer(this.db, options.cacheMb ?? null);
    this.cacheSizer.start();
    const background = options.checkpointInBackground && !options.readonly && options.path !== ':memory:';
    this.checkpointer = background ? new WalCheckpointer(this.db, options.path, options.onCheckpointFailure ? { onFailure: options.onCheckpointFailure } : {}) : null;
    // Every integer comes back as bigint: output values exceed 2^53 and must not be rounded on read.
    this.db.defaultSafeIntegers(true);
    this.st = new Statements(this.db);
    this.pageReturner = options.readonly || options.path === ':memory:' ? null : new PageReturner(this.db);
  }

  async schemaVersion(): Promise<number> {
    const hasMeta = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (!hasMeta) return 0;
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as Row | undefined;
    return row ? Number(row.value) : 0;
  }

  async migrate(toVersion = SCHEMA_VERSION): Promise<void> {
    const found = await this.schemaVersion();
    assertSupportedVersion(found, 'SQLite');
    const steps = migrationSql('sqlite');
    if (steps.length !== SCHEMA_VERSION) throw new StoreError('SQLite migrations do not match SCHEMA_VERSION');
    for (let v = found; v < Math.min(toVersion, SCHEMA_VERSION); v++) {
      this.db.transaction(() => {
        this.db.exec(steps[v]!);
        this.db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
          .run(String(v + 1));
      }).immediate();
    }
    this.enableIncrementalVacuum();
    this.pageReturner?.start();
  }

  /**
   * A file made before auto_vacuum was set (every store older than the compact chain layout) is converted once, while
   * its chain index is empty (just after the upgrade dropped it): VACUUM then rewrites only accounts and prices.
   */
  private enableIncrementalVacuum(): void {
    if (this.options.readonly || this.options.path === ':memory:') return;
    if (Number(this.db.pragma('auto_vacuum', { simple: true })) !== 0) return;
    if (this.db.prepare('SELECT 1 FROM tips LIMIT 1').get()) return;
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
  }

  async applyRawTxMode(mode: RawTxMode): Promise<RawTxModeChange> {
    const deleted = this.db.transaction(() => {
      let count = 0;
      if (mode === 'node') for (const id of NETWORK_IDS) count += Number(this.db.prepare(`DELETE FROM ${chainTables(id).txRaws}`).run().changes);
      return count;
    }).immediate();
    const previous = storedRawTxMode(this.db.prepare("SELECT value FROM meta WHERE key = 'raw_txs'").get() as Row | undefined);
    this.db.prepare("INSERT INTO meta (key, value) VALUES ('raw_txs', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(mode);
    // The deleted rows' pages go back to the file system (auto_vacuum = INCREMENTAL, see migrate()).
    if (deleted > 0) this.db.pragma('incremental_vacuum');
    return { previous, deleted };
  }

  network(id: NetworkId): NetworkStore {
    let store = this.networks.get(id);
    if (!store) {
      store = new SqliteNetworkStore(id, this.db, this.st, this.options, () => this.pageReturner?.start(), this.options.inWriterProcess !== true);
      this.networks.set(id, store);
    }
    return store;
  }

  shortAddresses(): ShortAddressStore {
    this.shorts ??= new SqlShortAddresses(new SqliteRunner(this.st));
    return this.shorts;
  }

  prices(): PriceStore {
    this.priceStore ??= new SqlitePrices(this.st);
    return this.priceStore;
  }

  accounts(): AccountStore {
    this.accountStore ??= new SqliteAccounts(this.st);
    return this.accountStore;
  }

  events(): EventLogStore {
    this.eventLog ??= new SqliteEventLog(this.st);
    return this.eventLog;
  }

  webhooks(): WebhookStore {
    this.hooks ??= new SqlWebhookStore(new SqliteRunner(this.st), 'sqlite');
    return this.hooks;
  }

  mempoolSamples(): MempoolSampleStore {
    this.samples ??= new SqlMempoolSamples(new SqliteRunner(this.st));
    return this.samples;
  }

  auth(): AuthStore {
    this.authStore ??= new SqlAuthStore(new SqliteRunner(this.st));
    return this.authStore;
  }

  /** One file, one process's reads: no replicas. */
  readReplicas(): null {
    return null;
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    this.pageReturner?.finish();
    this.cacheSizer.stop();
    for (const network of this.networks.values()) network.releaseWriter();
    this.db.close();
  }

  /** Test and tooling access (e.g. digests, forcing a schema version); not part of ChainStore. */
  get connection(): Database.Database {
    return this.db;
  }
}
