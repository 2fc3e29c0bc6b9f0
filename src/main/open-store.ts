import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChainStore } from '../core/index.js';
import { ConfigError } from '../core/index.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';

/** `sqlite:PATH` (the embedded default) or `postgres://…`. */
export function openStore(url: string): ChainStore {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return new SqliteStore({ path });
  }
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresStore({ connectionString: url });
  throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
}
