/**
 * The background build of an existing PostgreSQL store's scripthash index (docs/schema.md, "Scripthash index"): one
 * CREATE INDEX CONCURRENTLY, which lets the writer go on writing meanwhile. Killed halfway, it leaves an invalid index,
 * which PostgreSQL never reads from: the next build drops it and starts over (an index cannot be resumed). The meta row
 * that says the index is incomplete goes only once the index is valid.
 */
import type pg from 'pg';
import type { ScriptHashIndexState } from '../../../core/store/script-hash-reads.js';
import { scriptHashBuildKey } from '../../common/schema/chain-tables.js';
import { postgresScriptHashExpression } from '../../common/schema/script-hash-keys.js';
import type { PgNet } from './postgres-net.js';
import { one } from '../connection/postgres-sql.js';

const READY: ScriptHashIndexState = { ready: true, progress: 1 };

/** Outside any transaction (CONCURRENTLY needs its own), on a session of the writer process. */
export async function buildScriptHashes(pool: pg.Pool, n: PgNet): Promise<ScriptHashIndexState> {
  const key = scriptHashBuildKey(n.id);
  if (!(await one(pool, 'SELECT 1 AS x FROM meta WHERE key = $1', [key]))) return READY;
  const name = `${n.t.scripts}_by_hash`;
  const found = await one(pool, 'SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]);
  if (found && !found.indisvalid) await pool.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  if (!found?.indisvalid) await pool.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${n.t.scripts} (${postgresScriptHashExpression('script')})`);
  await pool.query('DELETE FROM meta WHERE key = $1', [key]);
  return READY;
}
