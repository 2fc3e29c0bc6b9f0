import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ChainStore, ConfigError, type RawTxMode } from '../../core/index.js';
import { PostgresStore } from '../../store/postgres/postgres-store.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

export interface OpenStoreOptions {
  /** `[store] raw_txs` (what the writers store). */
  readonly rawTxs?: RawTxMode;
  /** `[store] read_urls` and `max_replica_lag_ms` (PostgreSQL): the API's reads from replicas; admin commands pass none. */
  readonly readUrls?: readonly string[];
  readonly maxReplicaLagMs?: number;
  /** `[store] sqlite_cache_mb` (SQLite); absent or null: sized to the index. */
  readonly sqliteCacheMb?: number | null;
  /**
   * SQLite: WAL checkpoints on a worker thread, and where to say when they stop (sqlite-checkpointer.ts); the processes
   * that index pass it, short-lived commands do not.
   */
  readonly onCheckpointFailure?: (error: Error) => void;
}

/** `sqlite:PATH` (the embedded default) or `postgres://…`. */
export function openStore(url: string, options: OpenStoreOptions = {}): ChainStore {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    // Owner-only: the store holds password hashes and the script-key salt (an existing directory is left as it is).
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return new SqliteStore({
      path, ...(options.rawTxs ? { rawTxs: options.rawTxs } : {}), ...(options.sqliteCacheMb ? { cacheMb: options.sqliteCacheMb } : {}),
      ...(options.onCheckpointFailure ? { checkpointInBackground: true, onCheckpointFailure: options.onCheckpointFailure } : {}),
    });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { sqliteCacheMb: _sqliteOnly, onCheckpointFailure: _sqliteToo, ...pgOptions } = options;
    return new PostgresStore({ connectionString: url, ...pgOptions });
  }
  throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
}
