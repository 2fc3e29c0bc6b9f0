/**
 * The end of an initial (bulk) load for PostgreSQL: builds, in order, what the appending half deferred. Each step is
 * one transaction on the writer session that also records itself in bulk_loads.step, so a killed process resumes at
 * the next step. Unlike the writer's batches (nested loops by key, postgres-network-store.ts), these statements read
 * whole tables, so they run with hash and merge joins and a larger work_mem. Where a step's statements leave a core idle,
 * a side session does work beside them (postgres-bulk-side.ts): the history step's script sums, and ahead of the
 * script keys step, which then finds it done, the distinct scripts (makeDistinctScripts).
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import { fetchBulkRaws } from '../../common/chain-writes/bulk-raw-txs.js';
import { affectedOutputs, locateTx, moveCollidingScripts, rekeyOutputs } from '../../common/chain-writes/bulk-script-keys.js';
import type { PgNet } from './postgres-net.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { bulkStagingTables } from './postgres-bulk-load.js';
import { settled, sideTransaction, type SideSession } from './postgres-bulk-side.js';
import { scriptSumsSql, scriptSumsTable, stageScriptSums } from './postgres-bulk-sums.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { num, one, rows, tableExists } from '../connection/postgres-sql.js';

/** (Re)builds deferred indexes by name (the DDL in chain-tables.ts). */
async function createIndexes(db: pg.ClientBase, n: PgNet, ...names: string[]): Promise<void> {
  for (const name of names) {
    const index = deferredIndexes('postgres', n.id).find((i) => i.name === name)!;
    await db.query(index.drop);
    await db.query(index.create);
  }
}

/** Builds a deferred index on a side session: committed by itself with its table's rows, whole or not at all. */
function createIndexBeside(side: SideSession, n: PgNet, name: string): Promise<unknown> {
  return sideTransaction(side, `building ${name}`, (s) => createIndexes(s, n, name));
}

/**
 * What the steps of one build tell each other within this process (nothing of it outlives a kill, so a resumed build
 * does again what it cannot know was done): the tables whose planner statistics a side session has already taken.
 */
export interface BuildRun {
  readonly analyzed: Set<string>;
}

/** The tables the build leaves with planner statistics (finishBulkLoad analyzes those no step did). */
export function analyzedTables(n: PgNet): string[] {
  const { t } = n;
  return [t.blocks, t.txs, t.outputs, t.history, t.scripts];
}

/**
 * ANALYZE of tables no later step changes, on a side session beside a step: its lock (share update exclusive) lets the
 * step's own statements read and write the other tables. A failure only leaves the tables to the end of the build.
 */
async function analyzeBeside(side: SideSession, run: BuildRun, tables: readonly string[]): Promise<void> {
  const failed = await sideTransaction(side, 'analyzing', (s) => s.query(`ANALYZE ${tables.join(', ')}`).then(() => undefined));
  if (!failed) for (const table of tables) run.analyzed.add(table);
}

interface Step {
  readonly name: string;
  /**
   * `side`: a second session for work beside the step's own statements (postgres-bulk-side.ts says what it may do);
   * `run`: what earlier steps of this process did beside theirs.
   */
  run(db: pg.ClientBase, n: PgNet, rawTxs: RawTxSource | undefined, side: SideSession, run: BuildRun): Promise<void>;
}

/**
 * Resolves the pending spends (txids by a hash join on the txids; of a BIP30 duplicate the newest copy), checks them and
 * sums their values per spending block from the outputs as they are, then writes the outputs table again with every
 * spend in place (one pass: updating most rows in place would leave a dead version of each), and completes the blocks'
 * fees with those sums. Meanwhile, on a side session, the distinct scripts of the script keys step (ahead of it: the
 * staged scripts no longer change once the load has ended).
 */
async function resolvePending(db: pg.ClientBase, n: PgNet, _rawTxs: RawTxSource | undefined, side: SideSession): Promise<void> {
  const distinct = sideTransaction(side, 'listing the distinct scripts', (s) => makeDistinctScripts(s, n));
  try {
    await resolveSpends(db, n);
  } finally {
    await distinct;
  }
  await settled(distinct);
}

async function resolveSpends(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  if (!(await one(db, `SELECT 1 FROM ${t.bulkPending} LIMIT 1`))) {
    // Every spend was marked as its output was written (the worker load holds the latest outputs: on a chain within
    // its capacity, all of them): no table to write again.
    await createIndexes(db, n, `${t.outputs}_pkey`);
    await db.query(`UPDATE ${t.blocks} SET fees = fees - (value_out - reward)`);
    return;
  }
  const resolved = `${t.bulkPending}_resolved`;
  await db.query(`DROP TABLE IF EXISTS ${resolved}`);
  // Made and dropped inside this step's transaction: unlogged (no WAL), a crash rolls the step back anyway. A spend staged
  // by an older version has no spender_block: looked up then. A left join, so a missing prevout is a row without
  // prev_id; no DISTINCT ON (its sort of every spend cost more than the join): a txid that two txs have (BIP30) gives
  // a spend one row per copy, found by the count below and thinned to the newest copy only then.
  await db.query('SET LOCAL enable_mergejoin = off');
  await db.query(`CREATE UNLOGGED TABLE ${resolved} AS
    SELECT p.spender, p.vin, x.id AS prev_id, p.prev_vout, p.prev_txid,
      coalesce(p.spender_block, (SELECT max(first_tx) FROM ${t.blocks} WHERE first_tx <= p.spender)) AS spender_block
    FROM ${t.bulkPending} p LEFT JOIN ${t.txs} x ON x.txid = p.prev_txid`);
  const pending = num((await one(db, `SELECT count(*) AS c FROM ${t.bulkPending}`))!.c);
  const found = await one(db, `SELECT count(*) AS c, count(*) FILTER (WHERE prev_id IS NULL) AS missing FROM ${resolved}`);
  if (num(found!.missing) > 0) {
    const missing = await one(db, `SELECT prev_txid, prev_vout FROM ${resolved} WHERE prev_id IS NULL LIMIT 1`);
    throw new StoreError(`bulk load: missing prevout ${missing ? `${(missing.prev_txid as Buffer).toString('hex')}:${num(missing.prev_vout)}` : ''}`);
  }
  if (num(found!.c) !== pending) {
    await db.query(`DELETE FROM ${resolved} r USING ${resolved} newer
      WHERE newer.spender = r.spender AND newer.vin = r.vin AND newer.prev_id > r.prev_id`);
  }
  // One join checks every spend found its output (unspent, or already marked by this very input) and sums the inputs
  // per block: a hash join on the outputs before their rewrite, its few groups hashed. Left to itself, the planner
  // (no statistics) took a parallel merge join that sorted all outputs, and all the spends once per process.
  await db.query('SET LOCAL enable_sort = off');
  const sums = await rows(db, `SELECT r.spender_block, count(*) AS n, sum(o.value) AS inputs
    FROM ${resolved} r JOIN ${t.outputs} o ON o.id = r.prev_id AND o.vout = r.prev_vout
      AND (o.spent_by IS NULL OR (o.spent_by = r.spender AND o.spent_vin = r.vin))
    GROUP BY r.spender_block`);
  await db.query('SET LOCAL enable_sort = on');
  const marked = sums.reduce((total, r) => total + num(r.n), 0);
  if (marked !== pending) throw new StoreError(`bulk load: ${pending - marked} pending spends name outputs that do not exist or were spent twice`);
  const fresh = `${t.outputs}_bulk`;
  await db.query(`DROP TABLE IF EXISTS ${fresh}`);
  // CREATE TABLE AS writes through the bulk-insert path (an INSERT … SELECT into a new table took ~1.5x as long) and
  // can scan in parallel; rows come in the old table's order (the spends are the hash side), near enough key order.
  // Its columns are the outputs' (same names, types and order); NOT NULL is set again (id and vout by the key).
  await db.query(`CREATE TABLE ${fresh} AS
    SELECT o.id, o.vout, o.value, o.script, coalesce(o.spent_by, r.spender) AS spent_by, coalesce(o.spent_vin, r.vin) AS spent_vin
    FROM ${t.outputs} o LEFT JOIN ${resolved} r ON r.prev_id = o.id AND r.prev_vout = o.vout`);
  await db.query('SET LOCAL enable_mergejoin = on');
  await db.query(`ALTER TABLE ${fresh} ALTER COLUMN value SET NOT NULL, ALTER COLUMN script SET NOT NULL`);
  await db.query(`DROP TABLE ${t.outputs}`);
  await db.query(`ALTER TABLE ${fresh} RENAME TO ${t.outputs}`);
  await createIndexes(db, n, `${t.outputs}_pkey`);
  // Every input is known now: fees = inputs (the in-batch ones, already summed, plus these) - non-coinbase outputs.
  await db.query(`UPDATE ${t.blocks} b SET fees = b.fees + u.inputs FROM unnest($1::bigint[], $2::numeric[]) AS u(first_tx, inputs)
    WHERE b.first_tx = u.first_tx`, [sums.map((r) => String(r.spender_block)), sums.map((r) => String(r.inputs))]);
  await db.query(`UPDATE ${t.blocks} SET fees = fees - (value_out - reward)`);
  await db.query(`DROP TABLE ${resolved}`);
}

function distinctScripts(n: PgNet): string {
  return `${n.t.bulkScripts}_distinct`;
}

/** Its presence says no two distinct scripts share a key: made only where that holds (makeDistinctScripts). */
function uniqueKeys(n: PgNet): string {
  return `${distinctScripts(n)}_unique_key`;
}

/** Its presence says no two staged rows share a key: each is a script of its own, whose key collides with none. */
function uniqueStaged(n: PgNet): string {
  return `${n.t.bulkScripts}_unique_key`;
}

/** Up to this many staged rows the staged keys are first tried for uniqueness (a failed try costs one sort of them). */
const UNIQUE_TRY_ROWS = 1_000_000;

/** Makes a unique index if the keys allow it (in a savepoint: a duplicate key only leaves it unmade); says which. */
async function tryUniqueIndex(db: pg.ClientBase, name: string, table: string): Promise<boolean> {
  await db.query('SAVEPOINT unique_keys');
  try {
    await db.query(`CREATE UNIQUE INDEX ${name} ON ${table} (key)`);
    await db.query('RELEASE SAVEPOINT unique_keys');
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== '23505') throw e; // unique_violation
    await db.query('ROLLBACK TO SAVEPOINT unique_keys');
    return false;
  }
}

/**
 * The distinct scripts of the load with the first output paying each, made whole in the caller's transaction: the
 * script keys step's own work, done ahead of it beside the spends step on a side session (the staged scripts no
 * longer change once the load has ended). bulk_loads.step keeps its meaning for a resumed load, this version's or an
 * older one's ("every step before this one is done"): the keys step makes the table itself when it does not find it.
 *
 * The load stages a script once while its encoder remembers it (RecentKeys): on a chain within that memory, loaded by
 * one encoder, every staged row is already a distinct script. A unique index on the staged keys says so with one sort
 * of them, and the list is then a copy (on the 100k chain 0.45 s where grouping by the scripts' bytes and indexing
 * the result took 1.3 s). Otherwise the staged rows are grouped, and a unique index on the distinct keys, where it can
 * be made, tells the keys step that no key collides (the usual case) without its aggregate of every key.
 */
async function makeDistinctScripts(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  await db.query(`DROP TABLE IF EXISTS ${distinctScripts(n)}`);
  await db.query(`DROP INDEX IF EXISTS ${uniqueStaged(n)}`);
  const staged = num((await one(db, `SELECT count(*) AS c FROM (SELECT 1 FROM ${t.bulkScripts} LIMIT ${UNIQUE_TRY_ROWS + 1}) s`))!.c);
  if (staged <= UNIQUE_TRY_ROWS && (await tryUniqueIndex(db, uniqueStaged(n), t.bulkScripts))) {
    await db.query(`CREATE TABLE ${distinctScripts(n)} AS SELECT key, script, first_id FROM ${t.bulkScripts}`);
    return;
  }
  await db.query(`CREATE TABLE ${distinctScripts(n)} AS SELECT key, script, min(first_id) AS first_id FROM ${t.bulkScripts} GROUP BY key, script`);
  await tryUniqueIndex(db, uniqueKeys(n), distinctScripts(n));
}

/**
 * The distinct scripts of the load (unless the spends step listed them ahead), then their keys settled
 * (bulk-script-keys.ts; raws from the node if not stored). A table found is the side session's whole result: this
 * step is the only one that changes it, in its own transaction.
 */
async function settleScriptKeys(db: pg.ClientBase, n: PgNet, rawTxs: RawTxSource | undefined): Promise<void> {
  const { t } = n;
  if (!(await tableExists(db, distinctScripts(n)))) await makeDistinctScripts(db, n);
  if ((await tableExists(db, uniqueKeys(n))) || (await tableExists(db, uniqueStaged(n)))) return;
  // The colliding-keys query aggregates the whole distinct table (to find nothing, mostly): in one process it took
  // about half the time of the parallel plan, whose gather merge of every key cost more than the aggregate.
  await db.query('SET LOCAL max_parallel_workers_per_gather = 0');
  const moved = await runPostgres(db, moveCollidingScripts(t));
  await db.query('RESET max_parallel_workers_per_gather');
  if (moved.size === 0) return;
  const affected = await runPostgres(db, affectedOutputs(t, n.dialect, moved));
  const fetched = await fetchBulkRaws(affected.filter((o) => o.raw === null).map((o) => o.id), (id) => runPostgres(db, locateTx(t, id)), rawTxs);
  await runPostgres(db, rekeyOutputs(t, moved, affected, fetched));
}

/**
 * The outputs' indexes: the spender index on the step's session, the unspent index beside it (both read the outputs,
 * final since the script keys step; two CREATE INDEX share the table). The unspent index step finds it made.
 */
async function buildOutputIndexes(db: pg.ClientBase, n: PgNet, _rawTxs: RawTxSource | undefined, side: SideSession): Promise<void> {
  const unspent = createIndexBeside(side, n, `${n.t.outputs}_unspent`);
  try {
    await createIndexes(db, n, `${n.t.outputs}_by_spender`);
  } finally {
    await unspent;
  }
  await settled(unspent);
}

/** Made beside the spender index step by this version; by this step after an older one's. */
async function buildUnspentIndex(db: pg.ClientBase, n: PgNet): Promise<void> {
  if (!(await tableExists(db, `${n.t.outputs}_unspent`))) await createIndexes(db, n, `${n.t.outputs}_unspent`);
}

/**
 * History: one row per (script, tx) pair with its flags (1: the tx pays the script, 2: spends from it), from every
 * output and every spent output, aggregated and written in key order in one statement (no staging table). Meanwhile,
 * on a side session, the outputs' amounts per script for the totals step (postgres-bulk-sums.ts), the raw txs' key
 * (which no step reads; beside the spends step, where it was, the side session's list of scripts took longer than the
 * step's own statements once the outputs are written with their spends) and the planner statistics of the tables no
 * later step changes.
 */
async function buildHistory(db: pg.ClientBase, n: PgNet, _rawTxs: RawTxSource | undefined, side: SideSession, run: BuildRun): Promise<void> {
  const { t } = n;
  const staged = stageScriptSums(side, n)
    .then(async (failed) => failed ?? (await createIndexBeside(side, n, `${t.txRaws}_pkey`)))
    .then(async (failed) => {
      if (!failed) await analyzeBeside(side, run, [t.blocks, t.txs, t.outputs]);
      return failed;
    });
  try {
    // A sorted aggregate: its groups come out in key order, which the insert needs anyway (no second sort).
    await db.query('SET LOCAL enable_hashagg = off');
    await db.query(`INSERT INTO ${t.history} (script, id, flags)
      SELECT script, id, bit_or(f) FROM (SELECT script, id, 1 AS f FROM ${t.outputs}
        UNION ALL SELECT script, spent_by, 2 FROM ${t.outputs} WHERE spent_by IS NOT NULL) io
      GROUP BY script, id ORDER BY script, id`);
    await db.query('SET LOCAL enable_hashagg = on');
    await createIndexes(db, n, `${t.history}_pkey`);
  } finally {
    // Settled before this step ends either way: no side session is left running into the next step.
    await staged;
  }
  // A staging failure fails the step (before its commit), which runs again on the next start.
  await settled(staged);
}

/**
 * Script rows with exact totals (NUMERIC sums): amounts from the outputs (staged by the history step, or summed here
 * after a load whose history step an older version ran), counts from the history just built (the staging tables go
 * with the next step, which ends the load). Sorted aggregates: the history's groups come in key order from its new key (hash aggregates
 * of 200k groups with NUMERIC states took ~25% longer). Rows go in join order: scripts are read by key through the
 * index, so sorting the heap by key first (1.5 s of 5 on the 100k chain under load) bought nothing.
 */
async function buildScripts(db: pg.ClientBase, n: PgNet, _rawTxs: RawTxSource | undefined, side: SideSession, run: BuildRun): Promise<void> {
  const { t } = n;
  const analyzing = analyzeBeside(side, run, [t.history]);
  try {
    await writeScripts(db, n);
  } finally {
    await analyzing;
  }
}

async function writeScripts(db: pg.ClientBase, n: PgNet): Promise<void> {
  const { t } = n;
  const staged = await tableExists(db, scriptSumsTable(n));
  const amounts = staged ? scriptSumsTable(n) : `(${scriptSumsSql(n)})`;
  await db.query('SET LOCAL enable_hashagg = off');
  await db.query(`INSERT INTO ${t.scripts} (key, script, received, sent, tx_count, received_count, sent_count)
    SELECT d.key, d.script, coalesce(o.received, 0), coalesce(o.sent, 0), h.c, h.rc, h.sc
    FROM ${t.bulkScripts}_distinct d
    JOIN (SELECT script, count(*) AS c, sum(flags & 1) AS rc, sum(flags >> 1) AS sc FROM ${t.history} GROUP BY script) h ON h.script = d.key
    LEFT JOIN ${amounts} o ON o.script = d.key`);
  await db.query('SET LOCAL enable_hashagg = on');
  await createIndexes(db, n, `${t.scripts}_pkey`);
}

/** The scripthash index over the script rows (script-hash-keys.ts); then the staging tables go and the load ends. */
async function buildScriptHashes(db: pg.ClientBase, n: PgNet): Promise<void> {
  await createIndexes(db, n, `${n.t.scripts}_by_hash`);
  await db.query(`DROP TABLE IF EXISTS ${bulkStagingTables(n).join(', ')}`);
  await db.query('DELETE FROM bulk_loads WHERE net = $1', [n.net]);
}

export const BUILD_STEPS: readonly Step[] = [
  { name: 'txid index', run: (db, n) => createIndexes(db, n, `${n.t.txs}_pkey`, `${n.t.txs}_by_txid`) },
  { name: 'spends of older outputs', run: resolvePending },
  { name: 'script keys', run: settleScriptKeys },
  { name: 'spender index', run: buildOutputIndexes },
  { name: 'unspent index', run: buildUnspentIndex },
  { name: 'address histories', run: buildHistory },
  { name: 'address totals', run: buildScripts },
  // Last: the load ends with it (a load an older version began at an earlier step ends here too).
  { name: 'scripthash index', run: buildScriptHashes },
];
