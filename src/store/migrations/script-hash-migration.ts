/**
 * Schema version 15: the scripthash index (docs/schema.md, "Scripthash index"; the Electrum server's lookups). A store
 * made at this version has it from its chain tables' DDL (chain-tables.ts, version 8), complete and empty. An older
 * store gets, per network, what keeps the index from now on (SQLite: the table and its trigger; PostgreSQL: nothing,
 * its expression index is maintained by the database once made) and a meta row saying the scripts already stored are
 * still to be indexed: the writer process builds that in the background (resumable), and scripthash lookups answer
 * "index building" until the row is gone. Nothing is built inside the migration: on a mainnet store that would hold the
 * write lock for hours.
 */
import { NETWORK_IDS } from '../../core/domain/network.js';
import { chainTables, scriptHashBuildKey, scriptHashTriggerSql, type Engine } from '../common/schema/chain-tables.js';

export function scriptHashMigration(engine: Engine): string {
  return NETWORK_IDS.map((id) => {
    const t = chainTables(id);
    const pending = `INSERT INTO meta (key, value) SELECT '${scriptHashBuildKey(id)}', '' WHERE NOT EXISTS`;
    if (engine === 'postgres') return `${pending} (SELECT 1 WHERE to_regclass('${t.scripts}_by_hash') IS NOT NULL);`;
    return `CREATE TABLE IF NOT EXISTS ${t.scriptHashes} (hash INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (hash, key)) WITHOUT ROWID;
${pending} (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = '${t.scripts}_hash');
${scriptHashTriggerSql(id)};`;
  }).join('\n');
}
