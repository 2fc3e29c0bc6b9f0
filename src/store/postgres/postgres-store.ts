/** The PostgreSQL ChainStore: a pool for readers (stateless API processes scale out), one locked writer session per network. */
import pg from 'pg';
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
import type { ReadReplicas } from '../../core/store/read-replicas.js';
import { assertSupportedVersion, SCHEMA_VERSION } from '../common/schema/schema-version.js';
import { SqlAuthStore } from '../common/accounts/sql-auth-store.js';
import { SqlShortAddresses } from '../common/accounts/sql-short-addresses.js';
import { migrationSql } from '../migrations/migration-files.js';
import { PostgresAccounts } from './postgres-accounts.js';
import { PostgresNetworkStore } from './chain/postgres-network-store.js';
import { PostgresEventLog } from './postgres-event-log.js';
import { PostgresPrices } from './postgres-prices.js';
import { PostgresRunner } from './postgres-runner.js';
import { LOCK_NAMESPACE, one, tableExists } from './connection/postgres-sql.js';
import { translateUnavailable } from './connection/postgres-unavailable.js';
import { PRIMARY, ReadRouter, routedReadSides } from './replicas/read-router.js';
import { ReplicaSet } from './replicas/replica-set.js';

export interface PostgresStoreOptions extends ChainStoreOptions {
  readonly connectionString: string;
  readonly maxConnections?: number;
  /** `[store] read_urls`: hot standbys of connectionString that serve the API's reads (docs/operations.md, "Read replicas"). */
  readonly readUrls?: readonly string[];
  /** `[store] max_replica_lag_ms`: a replica lagging more is skipped (default 2000). */
  readonly maxReplicaLagMs?: number;
  /** Between two checks of the replicas' lag (tests). */
  readonly replicaCheckMs?: number;
}

export class PostgresStore implements ChainStore {
  readonly pool: pg.Pool;
  private readonly networks = new Map<NetworkId, PostgresNetworkStore>();
  private shorts: SqlShortAddresses | null = null;
  private accountStore: PostgresAccounts | null = null;
  private priceStore: PostgresPrices | null = null;
  private authStore: SqlAuthStore | null = null;
  private hooks: SqlWebhookStore | null = null;
  private samples: SqlMempoolSamples | null = null;
  private eventLog: PostgresEventLog | null = null;
  private readonly replicas: ReplicaSet | null = null;
  private readonly router: ReadRouter | null = null;

  constructor(private readonly options: PostgresStoreOptions) {
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
    // An idle client losing its server must not crash the process; the next query reports the error.
    this.pool.on('error', () => undefined);
    translateUnavailable(this.pool);
    if (options.readUrls && options.readUrls.length > 0) {
      this.replicas = new ReplicaSet({
        primaryUrl: options.connectionString, urls: options.readUrls, maxLagMs: options.maxReplicaLagMs ?? 2_000,
        ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
        ...(options.replicaCheckMs !== undefined ? { checkMs: options.replicaCheckMs } : {}),
      });
      this.router = new ReadRouter(this.replicas);
    }
  }

  readReplicas(): ReadReplicas | null {
    const { replicas, router } = this;
    return replicas && router ? { scope: router, maxLagMs: replicas.maxLagMs, states: () => replicas.states() } : null;
  }

  /** The pool the current read scope reads from (the primary's outside one, or without replicas). */
  private readPool(): pg.Pool {
    const target = this.router?.target() ?? PRIMARY;
    return target === PRIMARY ? this.pool : this.replicas!.pools[target]!;
  }

  /** From the database the current read scope reads (the health check's store probe: a replica while the primary is down). */
  async schemaVersion(): Promise<number> {
    const db = this.readPool();
    if (!(await tableExists(db, 'meta'))) return 0;
    const row = await one(db, "SELECT value FROM meta WHERE key = 'schema_version'");
    return row ? Number(row.value) : 0;
  }

  async migrate(toVersion = SCHEMA_VERSION): Promise<void> {
    const client = await this.pool.connect();
    try {
      // Several processes may start at once: one migrates, the others wait and then see the new version.
      await client.query('SELECT pg_advisory_lock($1, 0)', [LOCK_NAMESPACE]);
      const found = await this.schemaVersion();
      assertSupportedVersion(found, 'PostgreSQL');
      const steps = migrationSql('postgres');
      if (steps.length !== SCHEMA_VERSION) throw new StoreError('PostgreSQL migrations do not match SCHEMA_VERSION');
      for (let v = found; v < Math.min(toVersion, SCHEMA_VERSION); v++) {
        await client.query('BEGIN');
        try {
          await client.query(steps[v]!);
          await client.query("INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(v + 1)]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, 0)', [LOCK_NAMESPACE]).catch(() => undefined);
      client.release();
    }
  }

  /** TRUNCATE gives the table's files back at once (a DELETE would leave dead rows for VACUUM). */
  async applyRawTxMode(mode: RawTxMode): Promise<RawTxModeChange> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      let deleted = 0;
      if (mode === 'node') {
        for (const id of NETWORK_IDS) {
          const table = chainTables(id).txRaws;
          deleted += Number((await one(client, `SELECT count(*) AS c FROM ${table}`))!.c);
          await client.query(`TRUNCATE ${table}`);
        }
      }
      const previous = storedRawTxMode(await one(client, "SELECT value FROM meta WHERE key = 'raw_txs'"));
      await client.query("INSERT INTO meta (key, value) VALUES ('raw_txs', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [mode]);
      await client.query('COMMIT');
      return { previous, deleted };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  network(id: NetworkId): NetworkStore {
    return this.postgresNetwork(id);
  }

  /** The network's store with what only PostgreSQL has (a bulk load's batches encoded on another thread). */
  postgresNetwork(id: NetworkId): PostgresNetworkStore {
    let store = this.networks.get(id);
    if (!store) {
      const sides = this.replicas && this.router ? routedReadSides(this.router, this.replicas.pools) : undefined;
      store = new PostgresNetworkStore(id, this.pool, this.options.connectionString, this.options, sides);
      this.networks.set(id, store);
    }
    return store;
  }

  shortAddresses(): ShortAddressStore {
    this.shorts ??= new SqlShortAddresses(new PostgresRunner(this.pool));
    return this.shorts;
  }

  prices(): PriceStore {
    this.priceStore ??= new PostgresPrices(this.pool, () => this.readPool());
    return this.priceStore;
  }

  accounts(): AccountStore {
    this.accountStore ??= new PostgresAccounts(this.pool);
    return this.accountStore;
  }

  events(): EventLogStore {
    this.eventLog ??= new PostgresEventLog(this.pool);
    return this.eventLog;
  }

  webhooks(): WebhookStore {
    this.hooks ??= new SqlWebhookStore(new PostgresRunner(this.pool), 'postgres');
    return this.hooks;
  }

  mempoolSamples(): MempoolSampleStore {
    this.samples ??= new SqlMempoolSamples(new PostgresRunner(this.pool));
    return this.samples;
  }

  auth(): AuthStore {
    this.authStore ??= new SqlAuthStore(new PostgresRunner(this.pool));
    return this.authStore;
  }

  async close(): Promise<void> {
    for (const store of this.networks.values()) await store.close();
    await this.replicas?.close();
    await this.pool.end();
  }
}
