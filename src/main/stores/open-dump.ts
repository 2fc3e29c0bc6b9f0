import { ConfigError } from '../../core/index.js';
import type { DumpEngine } from '../../store/common/dump/dump-engine.js';
import { PostgresDump } from '../../store/postgres/postgres-dump.js';
import { SqliteDump } from '../../store/sqlite/sqlite-dump.js';

/** A dump connection to the store at `url` (`sqlite:PATH` or `postgres://…`), as openStore names stores. */
export function openDump(url: string): DumpEngine {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === ':memory:') throw new ConfigError('an in-memory SQLite store cannot be exported or loaded');
    return new SqliteDump(path);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresDump(url);
  throw new ConfigError(`store.url must be sqlite:PATH or postgres://…, got "${url}"`);
}

/** Runs `fn` with a dump connection and closes it. */
export async function withDump<T>(url: string, fn: (engine: DumpEngine) => Promise<T>): Promise<T> {
  const engine = openDump(url);
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
