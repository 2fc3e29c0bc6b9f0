import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ChainStore, ConfigError, type RawTxMode } from '../../core/index.js';
import { PostgresStore } from '../../store/postgres/postgres-store.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

/** `sqlite:PATH` (the embedded default) or `postgres://…`; `rawTxs` is `[store] raw_txs` (what the writers store). */
export function openStore(url: string, options: { readonly rawTxs?: RawTxMode } = {}): ChainStore {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return new SqliteStore({ path, ...options });
  }
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresStore({ connectionString: url, ...options });
  throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
}
