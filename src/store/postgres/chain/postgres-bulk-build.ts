/**
 * The end of an initial (bulk) load for PostgreSQL: builds, in order, what the appending half deferred. Each step is
 * one transaction on the writer session that also records itself in bulk_loads.step, so a killed process resumes at
 * the next step. Unlike the writer's batches (nested loops by key, postgres-network-store.ts), these statements read
 * whole tables, so they run with hash and merge joins and a larger work_mem.
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import { fetchBulkRaws } from '../../common/chain-writes/bulk-raw-txs.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { affectedOutputs, locateTx, moveCollidingScripts, rekeyOutputs } from '../../common/chain-writes/bulk-script-keys.js';
import type { PgNet } from './postgres-net.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { num, one, rows } from '../connection/postgres-sql.js';

interface Step {
  readonly name: string;
  run(db: pg.ClientBase, n: PgNet, rawTxs: RawTxSource | undefined): Promise<void>;
}

async function createIndexes(db: pg.ClientBase, n: PgNet, ...names: string[]): Promise<void> {
  for (const name of names) {
    const index = deferredIndexes('postgres', n.id).find((i) => i.name === name)!;
    await db.query(index.drop);
    await db.query(index.create);
  }
}

/**
 * Resolves the pending spends (txids through the new txid index; of a BIP30 duplicate the newest copy), writes the
 * outputs table again with every spend in place (one pass: updating most rows in place would leave a dead version of
 * each), and completes the blocks' fees from the spends' values summed per spending block (staged with each spend).
 */
async function resolvePending(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  const resolved = `${t.bulkPending}_resolved`;
  await db.query(`DROP TABLE IF EXISTS ${resolved}`);
  // Made and dropped inside this step's transaction: unlogged (no WAL), a crash rolls the step back anyway. A spend staged
  // by an older version has no spender_block: looked up then.
  await db.query(`CREATE UNLOGGED TABLE ${resolved} AS
    SELECT DISTINCT ON (p.spender, p.vin) p.spender, p.vin, x.id AS prev_id, p.prev_vout, p.prev_txid,
      coalesce(p.spender_block, (SELECT max(first_tx) FROM ${t.blocks} WHERE first_tx <= p.spender)) AS spender_block
    FROM ${t.bulkPending} p JOIN ${t.txs} x ON substring(x.txid from 1 for 8) = substring(p.prev_txid from 1 for 8) AND x.txid = p.prev_txid
    ORDER BY p.spender, p.vin, x.id DESC`);
  const pending = num((await one(db, `SELECT count(*) AS c FROM ${t.bulkPending}`))!.c);
  const found = num((await one(db, `SELECT count(*) AS c FROM ${resolved}`))!.c);
  if (found !== pending) {
    const missing = await one(db, `SELECT p.prev_txid, p.prev_vout FROM ${t.bulkPending} p
      WHERE NOT EXISTS (SELECT 1 FROM ${resolved} r WHERE r.spender = p.spender AND r.vin = p.vin) LIMIT 1`);
    throw new StoreError(`bulk load: missing prevout ${missing ? `${(missing.prev_txid as Buffer).toString('hex')}:${num(missing.prev_vout)}` : ''}`);
  }
  const fresh = `${t.outputs}_bulk`;
  await db.query(`DROP TABLE IF EXISTS ${fresh}`);
  await db.query(`CREATE TABLE ${fresh} (LIKE ${t.outputs} INCLUDING ALL)`);
  await db.query(`INSERT INTO ${fresh} (id, vout, value, script, spent_by, spent_vin)
    SELECT o.id, o.vout, o.value, o.script, coalesce(o.spent_by, r.spender), coalesce(o.spent_vin, r.vin)
    FROM ${t.outputs} o LEFT JOIN ${resolved} r ON r.prev_id = o.id AND r.prev_vout = o.vout
    ORDER BY o.id, o.vout`);
  // One join checks every spend found its output (and no output was spent twice) and sums the inputs per block.
  const sums = await rows(db, `SELECT r.spender_block, count(*) AS n, sum(o.value) AS inputs
    FROM ${resolved} r JOIN ${fresh} o ON o.id = r.prev_id AND o.vout = r.prev_vout AND o.spent_by = r.spender AND o.spent_vin = r.vin
    GROUP BY r.spender_block`);
  const marked = sums.reduce((total, r) => total + num(r.n), 0);
  if (marked !== pending) throw new StoreError(`bulk load: ${pending - marked} pending spends name outputs that do not exist or were spent twice`);
  await db.query(`DROP TABLE ${t.outputs}`);
  await db.query(`ALTER TABLE ${fresh} RENAME TO ${t.outputs}`);
  await createIndexes(db, n, `${t.outputs}_pkey`);
  // Every input is known now: fees = inputs (the in-batch ones, already summed, plus these) - non-coinbase outputs.
  await db.query(`UPDATE ${t.blocks} b SET fees = b.fees + u.inputs FROM unnest($1::bigint[], $2::numeric[]) AS u(first_tx, inputs)
    WHERE b.first_tx = u.first_tx`, [sums.map((r) => String(r.spender_block)), sums.map((r) => String(r.inputs))]);
  await db.query(`UPDATE ${t.blocks} SET fees = fees - (value_out - reward)`);
  await db.query(`DROP TABLE ${resolved}`);
}

/** The distinct scripts of the load, then their keys settled (bulk-script-keys.ts; raws from the node if not stored). */
async function settleScriptKeys(db: pg.ClientBase, n: PgNet, rawTxs: RawTxSource | undefined): Promise<void> {
  const { t } = n;
  const distinct = `${t.bulkScripts}_distinct`;
  await db.query(`DROP TABLE IF EXISTS ${distinct}`);
  await db.query(`CREATE TABLE ${distinct} AS SELECT key, script, min(first_id) AS first_id FROM ${t.bulkScripts} GROUP BY key, script`);
  const moved = await runPostgres(db, moveCollidingScripts(t));
  if (moved.size === 0) return;
  const affected = await runPostgres(db, affectedOutputs(t, n.dialect, moved));
  const fetched = await fetchBulkRaws(affected.filter((o) => o.raw === null).map((o) => o.id), (id) => runPostgres(db, locateTx(t, id)), rawTxs);
  await runPostgres(db, rekeyOutputs(t, moved, affected, fetched));
}

/**
 * History: one row per (script, tx) pair with its flags (1: the tx pays the script, 2: spends from it), from every
 * output and every spent output, aggregated and written in key order in one statement (no staging table).
 */
async function buildHistory(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  // A sorted aggregate: its groups come out in key order, which the insert needs anyway (no second sort).
  await db.query('SET LOCAL enable_hashagg = off');
  await db.query(`INSERT INTO ${t.history} (script, id, flags)
    SELECT script, id, bit_or(f) FROM (SELECT script, id, 1 AS f FROM ${t.outputs}
      UNION ALL SELECT script, spent_by, 2 FROM ${t.outputs} WHERE spent_by IS NOT NULL) io
    GROUP BY script, id ORDER BY script, id`);
  await db.query('SET LOCAL enable_hashagg = on');
  await createIndexes(db, n, `${t.history}_pkey`);
}

/**
 * Script rows with exact totals (NUMERIC sums): amounts from the outputs, counts from the history just built; then the
 * staging tables go and the load ends. Rows go in join order: scripts are read by key through the index, so sorting the
 * heap by key first (1.5 s of 5 on the 100k chain under load) bought nothing.
 */
async function buildScripts(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  await db.query(`INSERT INTO ${t.scripts} (key, script, received, sent, tx_count, received_count, sent_count)
    SELECT d.key, d.script, coalesce(o.received, 0), coalesce(o.sent, 0), h.c, h.rc, h.sc
    FROM ${t.bulkScripts}_distinct d
    JOIN (SELECT script, count(*) AS c, sum(flags & 1) AS rc, sum(flags >> 1) AS sc FROM ${t.history} GROUP BY script) h ON h.script = d.key
    LEFT JOIN (SELECT script, sum(value) AS received, sum(value) FILTER (WHERE spent_by IS NOT NULL) AS sent FROM ${t.outputs} GROUP BY script) o
      ON o.script = d.key`);
  await createIndexes(db, n, `${t.scripts}_pkey`);
  await db.query(`DROP TABLE IF EXISTS ${t.bulkPending}, ${t.bulkScripts}, ${t.bulkScripts}_distinct, ${t.bulkScripts}_pairs`);
  await db.query('DELETE FROM bulk_loads WHERE net = $1', [n.net]);
}

export const BUILD_STEPS: readonly Step[] = [
  { name: 'txid index', run: (db, n) => createIndexes(db, n, `${n.t.txs}_pkey`, `${n.t.txRaws}_pkey`, `${n.t.txs}_by_txid`) },
  { name: 'spends of older outputs', run: resolvePending },
  { name: 'script keys', run: settleScriptKeys },
  { name: 'spender index', run: (db, n) => createIndexes(db, n, `${n.t.outputs}_by_spender`) },
  { name: 'unspent index', run: (db, n) => createIndexes(db, n, `${n.t.outputs}_unspent`) },
  { name: 'address histories', run: buildHistory },
  { name: 'address totals', run: buildScripts },
];

/** How each build step runs: whole-table joins, with memory for sorts and hashes (this transaction only). */
export const BUILD_SETTINGS = "SET LOCAL enable_hashjoin = on; SET LOCAL enable_mergejoin = on; SET LOCAL enable_bitmapscan = on; SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL synchronous_commit = off";
