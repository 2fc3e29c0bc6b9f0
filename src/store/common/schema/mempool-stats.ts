/**
 * The live mempool's size, kept as it changes (schema version 14, docs/schema.md): one row per network with the count,
 * serialized bytes, vbytes and fees of its live mempool txs, maintained by triggers on `mempool_txs_n` in the same
 * transaction as every write that adds, removes or un-removes a tx, whichever code path makes it (the mempool writer,
 * connectBlocks' settling, removals, snapshot imports, a bulk reset's TRUNCATE). get_info, the projection and the
 * explorer read one row instead of summing the whole table: at 100,000 txs the sums took 20-40 ms of the event loop
 * per get_info (docs/benchmarks.md, "The tip at mainnet size").
 *
 * SQLite: row triggers (a one-row UPDATE per tx written, a few microseconds). PostgreSQL: statement triggers over the
 * statement's transition tables (one UPDATE per statement, whatever its number of rows; a row trigger would make one
 * row version per tx).
 */
import type { NetworkId } from '../../../core/domain/network.js';
import { chainTables, type Engine } from './chain-tables.js';

/** The live rows' sums of `table` (a live tx is one not marked removed), as the one row's columns. */
function sums(engine: Engine, table: string): string {
  const live = engine === 'sqlite' ? 'removed = 0' : 'NOT removed';
  return `SELECT COUNT(*) AS tx_count, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM((weight + 3) / 4), 0) AS vbytes, COALESCE(SUM(fee), 0) AS fees FROM ${table} WHERE ${live}`;
}

/**
 * The table, its row as the mempool is now, and the triggers that keep it: created by schema version 14 for every
 * network, after the chain tables of version 8 (which create today's layout of those tables, but not this one).
 */
export function mempoolStatsSql(engine: Engine, id: NetworkId): string {
  const { mempoolStats: stats, mempoolTxs: txs } = chainTables(id);
  const int = engine === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const table = `CREATE TABLE ${stats} (one ${engine === 'sqlite' ? 'INTEGER' : 'SMALLINT'} PRIMARY KEY CHECK (one = 0),
  tx_count ${int} NOT NULL, bytes ${int} NOT NULL, vbytes ${int} NOT NULL, fees ${int} NOT NULL);
INSERT INTO ${stats} (one, tx_count, bytes, vbytes, fees) SELECT 0, tx_count, bytes, vbytes, fees FROM (${sums(engine, txs)}) s;`;
  return `${table}\n${engine === 'sqlite' ? sqliteTriggers(stats, txs) : postgresTriggers(stats, txs)}`;
}

/** `sign` 1 adds the row's figures, -1 takes them away. */
function sqliteChange(stats: string, row: 'NEW' | 'OLD', sign: string): string {
  return `UPDATE ${stats} SET tx_count = tx_count + ${sign}, bytes = bytes + ${sign} * ${row}.size,
    vbytes = vbytes + ${sign} * ((${row}.weight + 3) / 4), fees = fees + ${sign} * ${row}.fee;`;
}

function sqliteTriggers(stats: string, txs: string): string {
  return `CREATE TRIGGER ${stats}_in AFTER INSERT ON ${txs} WHEN NEW.removed = 0 BEGIN ${sqliteChange(stats, 'NEW', '1')} END;
CREATE TRIGGER ${stats}_out AFTER DELETE ON ${txs} WHEN OLD.removed = 0 BEGIN ${sqliteChange(stats, 'OLD', '-1')} END;
CREATE TRIGGER ${stats}_update AFTER UPDATE OF removed, size, weight, fee ON ${txs} BEGIN
  ${sqliteChange(stats, 'OLD', '(CASE WHEN OLD.removed = 0 THEN -1 ELSE 0 END)')}
  ${sqliteChange(stats, 'NEW', '(CASE WHEN NEW.removed = 0 THEN 1 ELSE 0 END)')}
END;`;
}

function postgresTriggers(stats: string, txs: string): string {
  const delta = (table: string, sign: string): string =>
    `SELECT ${sign} * COUNT(*) AS c, ${sign} * COALESCE(SUM(size), 0) AS b, ${sign} * COALESCE(SUM((weight + 3) / 4), 0) AS v, ${sign} * COALESCE(SUM(fee), 0) AS f
      FROM ${table} WHERE NOT removed`;
  const apply = (rows: string): string => `UPDATE ${stats} s SET tx_count = s.tx_count + d.c, bytes = s.bytes + d.b, vbytes = s.vbytes + d.v, fees = s.fees + d.f
      FROM (SELECT SUM(c) AS c, SUM(b) AS b, SUM(v) AS v, SUM(f) AS f FROM (${rows}) x) d WHERE d.c IS NOT NULL AND (d.c <> 0 OR d.b <> 0 OR d.v <> 0 OR d.f <> 0);`;
  const fn = (name: string, body: string): string =>
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$;`;
  return `${fn(`${stats}_in`, apply(delta('added', '1')))}
${fn(`${stats}_out`, apply(delta('gone', '-1')))}
${fn(`${stats}_update`, apply(`${delta('after', '1')} UNION ALL ${delta('before', '-1')}`))}
${fn(`${stats}_reset`, `UPDATE ${stats} SET tx_count = 0, bytes = 0, vbytes = 0, fees = 0;`)}
CREATE TRIGGER ${stats}_in AFTER INSERT ON ${txs} REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${stats}_in();
CREATE TRIGGER ${stats}_out AFTER DELETE ON ${txs} REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION ${stats}_out();
CREATE TRIGGER ${stats}_update AFTER UPDATE ON ${txs} REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION ${stats}_update();
CREATE TRIGGER ${stats}_reset AFTER TRUNCATE ON ${txs} FOR EACH STATEMENT EXECUTE FUNCTION ${stats}_reset();`;
}

/** What mempoolStatsSql made, dropped (tests that take a store back to an earlier version run its migration again). */
export function dropMempoolStatsSql(engine: Engine, id: NetworkId): string[] {
  const { mempoolStats: stats, mempoolTxs: txs } = chainTables(id);
  const parts = engine === 'sqlite' ? ['in', 'out', 'update'] : ['in', 'out', 'update', 'reset'];
  return [
    ...parts.map((part) => `DROP TRIGGER IF EXISTS ${stats}_${part}${engine === 'postgres' ? ` ON ${txs}` : ''}`),
    ...(engine === 'postgres' ? parts.map((part) => `DROP FUNCTION IF EXISTS ${stats}_${part}()`) : []),
    `DROP TABLE IF EXISTS ${stats}`,
  ];
}
