/**
 * The end of an initial (bulk) load for SQLite: builds, in order, what the appending half deferred. Each step is one
 * transaction that also records itself in bulk_loads.step, so a killed process resumes at the next step. Large sorts
 * spill to temporary files (temp_store = FILE while building), so memory stays bounded whatever the chain length.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import type { BulkBuildStep } from '../../../core/store/network-store.js';
import { fetchBulkRaws } from '../../common/chain-writes/bulk-raw-txs.js';
import { blockFirstTx } from '../../common/chain-writes/bulk-rows.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { affectedOutputs, locateTx, moveCollidingScripts, rekeyOutputs } from '../../common/chain-writes/bulk-script-keys.js';
import { readBulkLoad } from '../../common/schema/network-rows.js';
import type { SqliteNet } from './sqlite-net.js';
import { storedTotal } from './sqlite-scripts.js';
import { big, num, type Row } from '../connection/sqlite-statements.js';

interface Step {
  readonly name: string;
  /** Reads (and fetches) what `run` needs before its transaction: SQLite's transactions cannot wait for the node. */
  prepare?(n: SqliteNet, rawTxs: RawTxSource | undefined): Promise<Map<number, Uint8Array>>;
  run(n: SqliteNet, prepared: Map<number, Uint8Array>): void;
}

function createIndex(n: SqliteNet, suffix: string): void {
  const index = deferredIndexes('sqlite', n.id).find((i) => i.name.endsWith(suffix))!;
  n.st.db.exec(`${index.drop}; ${index.create}`);
}

/** Marks every older output a pending spend names, and adds the values to the spending blocks' input sums. */
function resolvePending(n: SqliteNet): void {
  const { st, t } = n;
  const pending = num((st.get(`SELECT count(*) AS c FROM ${t.bulkPending}`).get() as Row).c);
  // Look the txids up in txid order (the index is read front to back), then mark the outputs in key order.
  st.db.exec(`DROP TABLE IF EXISTS temp.bulk_resolved;
    CREATE TEMP TABLE bulk_resolved AS SELECT p.spender, p.vin, p.prev_vout, p.prev_txid,
      (SELECT max(x.id) FROM ${t.txs} x WHERE substr(x.txid, 1, 8) = substr(p.prev_txid, 1, 8) AND x.txid = p.prev_txid) AS prev_id
    FROM (SELECT * FROM ${t.bulkPending} ORDER BY prev_txid) p;`);
  const blocks = (st.get(`SELECT first_tx FROM ${t.blocks} ORDER BY first_tx`).all() as Row[]).map((r) => num(r.first_tx));
  const inputs = new Map<number, bigint>();
  const marked = st.get(`UPDATE ${t.outputs} SET spent_by = r.spender, spent_vin = r.vin
    FROM (SELECT * FROM temp.bulk_resolved ORDER BY prev_id, prev_vout) AS r
    WHERE ${t.outputs}.id = r.prev_id AND ${t.outputs}.vout = r.prev_vout AND ${t.outputs}.spent_by IS NULL
    RETURNING ${t.outputs}.spent_by AS spender, ${t.outputs}.value AS value`);
  let count = 0;
  for (const row of marked.iterate() as IterableIterator<Row>) {
    const first = blockFirstTx(blocks, num(row.spender));
    inputs.set(first, (inputs.get(first) ?? 0n) + big(row.value));
    count++;
  }
  if (count !== pending) {
    const missing = st.get(`SELECT r.prev_txid, r.prev_vout FROM temp.bulk_resolved r WHERE NOT EXISTS
      (SELECT 1 FROM ${t.outputs} o WHERE o.id = r.prev_id AND o.vout = r.prev_vout AND o.spent_by = r.spender) LIMIT 1`).get() as Row | undefined;
    const what = missing ? `${(missing.prev_txid as Buffer).toString('hex')}:${num(missing.prev_vout)}` : `${pending - count} outpoints`;
    throw new StoreError(`bulk load: missing prevout ${what}`);
  }
  // Every input is known now: fees = inputs - (outputs - coinbase outputs), exact in bigint.
  const write = st.get(`UPDATE ${t.blocks} SET fees = ? WHERE first_tx = ?`);
  for (const b of st.get(`SELECT first_tx, fees, reward, value_out FROM ${t.blocks}`).all() as Row[]) {
    const first = num(b.first_tx);
    const spent = BigInt(b.fees as string) + (inputs.get(first) ?? 0n);
    write.run((spent - (BigInt(b.value_out as string) - BigInt(b.reward as string))).toString(), first);
  }
  st.db.exec('DROP TABLE temp.bulk_resolved');
}

/** The distinct scripts of the load, then their keys settled (bulk-script-keys.ts); `fetched`: raws from the node. */
function settleScriptKeys(n: SqliteNet, fetched: Map<number, Uint8Array>): void {
  const { st, t } = n;
  st.db.exec(`DROP TABLE IF EXISTS ${t.bulkScripts}_distinct;
    CREATE TABLE ${t.bulkScripts}_distinct (key INTEGER NOT NULL, script BLOB NOT NULL, first_id INTEGER NOT NULL);
    INSERT INTO ${t.bulkScripts}_distinct SELECT key, script, min(first_id) FROM ${t.bulkScripts} GROUP BY key, script ORDER BY key;`);
  const moved = n.run(moveCollidingScripts(t));
  if (moved.size > 0) n.run(rekeyOutputs(t, moved, n.run(affectedOutputs(t, n.dialect, moved)), fetched));
}

/** With raw_txs = "node": the raw txs of outputs whose script key collides, from the node (none when no key collides). */
async function fetchCollidingRaws(n: SqliteNet, rawTxs: RawTxSource | undefined): Promise<Map<number, Uint8Array>> {
  const { st, t, dialect: d } = n;
  if (n.storesRaws) return new Map();
  const bases = (st.get(`SELECT key FROM ${t.bulkScripts} GROUP BY key HAVING count(DISTINCT script) > 1`).all() as Row[]).map((r) => num(r.key));
  if (bases.length === 0) return new Map();
  const ids = (st.get(`SELECT DISTINCT id FROM ${t.outputs} WHERE ${d.inList('script')}`).all(d.list(bases)) as Row[]).map((r) => num(r.id));
  return fetchBulkRaws(ids, (id) => n.run(locateTx(t, id)), rawTxs);
}

/**
 * One row per (script, tx) pair with its flags and amounts, from every output (funding) and every spent output
 * (spending) in one sorted pass; history and the script totals are read off it in key order.
 */
function buildHistory(n: SqliteNet): void {
  const { st, t } = n;
  st.db.exec(`DROP TABLE IF EXISTS ${t.bulkScripts}_pairs;
    CREATE TABLE ${t.bulkScripts}_pairs (script INTEGER NOT NULL, id INTEGER NOT NULL, flags INTEGER NOT NULL, r INTEGER, s INTEGER,
      PRIMARY KEY (script, id)) WITHOUT ROWID;
    INSERT INTO ${t.bulkScripts}_pairs
      SELECT script, id, max(f = 1) | (max(f = 2) << 1), sum(CASE WHEN f = 1 THEN value END), sum(CASE WHEN f = 2 THEN value END)
      FROM (SELECT script, id, 1 AS f, value FROM ${t.outputs} UNION ALL SELECT script, spent_by, 2, value FROM ${t.outputs} WHERE spent_by IS NOT NULL)
      GROUP BY script, id;
    INSERT INTO ${t.history} (script, id, flags) SELECT script, id, flags FROM ${t.bulkScripts}_pairs;`);
}

/**
 * Script rows with exact totals. Sums are added as two 32-bit halves (exact in 64-bit SQL integers for up to 2^31
 * rows a script); a total that does not fit an INTEGER is written as a decimal afterwards.
 */
function buildScripts(n: SqliteNet): void {
  const { st, t } = n;
  const fits = (hi: string, lo: string): string => `CASE WHEN ${hi} < 1073741824 AND ${lo} < 2305843009213693952 THEN ${hi} * 4294967296 + ${lo} ELSE 'x' END`;
  st.db.exec(`INSERT INTO ${t.scripts} (key, script, received, sent, tx_count, received_count, sent_count)
    SELECT d.key, d.script, ${fits('p.rh', 'p.rl')}, ${fits('p.sh', 'p.sl')}, p.c, p.rc, p.sc
    FROM ${t.bulkScripts}_distinct d JOIN (
      SELECT script, coalesce(sum(r >> 32), 0) AS rh, coalesce(sum(r & 4294967295), 0) AS rl, coalesce(sum(s >> 32), 0) AS sh,
        coalesce(sum(s & 4294967295), 0) AS sl, count(*) AS c, sum(flags & 1) AS rc, sum(flags >> 1) AS sc
      FROM ${t.bulkScripts}_pairs GROUP BY script) p ON p.script = d.key
    ORDER BY d.key;`);
  const overflowing = st.get(`SELECT key FROM ${t.scripts} WHERE received = 'x' OR sent = 'x'`).all() as Row[];
  const sums = st.get(`SELECT r, s FROM ${t.bulkScripts}_pairs WHERE script = ?`);
  const write = st.get(`UPDATE ${t.scripts} SET received = ?, sent = ? WHERE key = ?`);
  for (const { key } of overflowing) {
    let received = 0n;
    let sent = 0n;
    for (const p of sums.all(key) as Row[]) {
      if (p.r !== null) received += big(p.r);
      if (p.s !== null) sent += big(p.s);
    }
    write.run(storedTotal(received), storedTotal(sent), key);
  }
}

function dropStaging(n: SqliteNet): void {
  const { t } = n;
  n.st.db.exec(`DROP TABLE IF EXISTS ${t.bulkPending}; DROP TABLE IF EXISTS ${t.bulkScripts};
    DROP TABLE IF EXISTS ${t.bulkScripts}_distinct; DROP TABLE IF EXISTS ${t.bulkScripts}_pairs;`);
  n.st.get('DELETE FROM bulk_loads WHERE net = ?').run(n.net);
}

export const BUILD_STEPS: readonly Step[] = [
  { name: 'txid index', run: (n) => createIndex(n, '_by_txid') },
  { name: 'spends of older outputs', run: resolvePending },
  { name: 'script keys', prepare: fetchCollidingRaws, run: settleScriptKeys },
  { name: 'spender index', run: (n) => createIndex(n, '_by_spender') },
  { name: 'unspent index', run: (n) => createIndex(n, '_unspent') },
  { name: 'address histories', run: buildHistory },
  { name: 'address totals', run: buildScripts },
  // Last: the load ends with it (a load an older version began at an earlier step ends here too).
  { name: 'scripthash index', run: (n) => { createIndex(n, '_by_hash'); dropStaging(n); } },
];

/**
 * Runs the build steps not done yet, each in its own transaction together with its progress mark. The event loop is
 * free between steps, and `onStep` (awaited) is told each step before it starts.
 */
export async function finishBulkLoad(n: SqliteNet, onStep?: (step: BulkBuildStep) => void | Promise<void>, rawTxs?: RawTxSource): Promise<void> {
  const state = n.run(readBulkLoad(n.net));
  if (!state) return;
  // Sorts and temporary tables of the build go to files: they can exceed memory on a large chain.
  n.st.db.pragma('temp_store = FILE');
  try {
    for (let i = state.step; i < BUILD_STEPS.length; i++) {
      const step = BUILD_STEPS[i]!;
      await onStep?.({ step: i + 1, steps: BUILD_STEPS.length, name: step.name });
      const prepared = (await step.prepare?.(n, rawTxs)) ?? new Map<number, Uint8Array>();
      n.st.db.transaction(() => {
        step.run(n, prepared);
        n.st.get('UPDATE bulk_loads SET step = ? WHERE net = ?').run(i + 1, n.net);
      }).immediate();
    }
  } finally {
    n.st.db.pragma('temp_store = MEMORY');
  }
  // The staging tables' pages are given back to the file system in the background (sqlite-page-return.ts).
}
