/**
 * Schema version 7: the compact chain layout (docs/schema.md, "Compact chain layout"). The chain index of version 6 is
 * dropped and every network starts over with an initial (bulk) sync: the old rows cannot be converted without the
 * node (raw blocks are needed to number transactions in chain order), and a bulk load rebuilds them faster than a
 * conversion could. Nothing that cannot be rebuilt from the node is touched: accounts, keys, plans, usage, prices and
 * short addresses stay as they are.
 */
import { randomBytes } from 'node:crypto';
import { NETWORK_IDS } from '../../core/domain/network.js';
import { NEW_STORE_KEY_BITS } from '../common/chain-writes/script-keys.js';
import { chainTablesSql, type Engine } from '../common/schema/chain-tables.js';

const OLD_TABLES = ['history', 'outputs', 'txs', 'scripts', 'blocks', 'mempool_spends', 'mempool_outputs', 'mempool_txs', 'tips'];

export function compactChainMigration(engine: Engine): string {
  const drop = OLD_TABLES.map((t) => `DROP TABLE IF EXISTS ${t}${engine === 'postgres' ? ' CASCADE' : ''};`).join('\n');
  const big = engine === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const blob = engine === 'sqlite' ? 'BLOB' : 'BYTEA';
  const net = engine === 'sqlite' ? 'INTEGER' : 'SMALLINT';
  // The salt of the script keys' hash is secret per database, so nobody can make scripts whose keys collide on purpose.
  const salt = randomBytes(16).toString('hex');
  return `${drop}
CREATE TABLE tips (net ${net} PRIMARY KEY, height INTEGER NOT NULL, hash ${blob} NOT NULL, next_tx ${big} NOT NULL);
CREATE TABLE bulk_loads (net ${net} PRIMARY KEY, step INTEGER NOT NULL, started_at ${big} NOT NULL);
INSERT INTO meta (key, value) VALUES ('script_key_salt', '${salt}');
INSERT INTO meta (key, value) VALUES ('script_key_bits', '${NEW_STORE_KEY_BITS}');
${NETWORK_IDS.map((id) => chainTablesSql(engine, id)).join('\n')}`;
}
