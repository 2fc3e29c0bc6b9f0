/** addMempoolTxs / removeMempoolTxs for PostgreSQL: bulk reads, the shared plan, then set-based writes. */
import type pg from 'pg';
import type { MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import { bytesToHex, outpointKey } from '../../common/schema/codec.js';
import { mempoolNeeds, planMempoolAdd, type KnownState, type MempoolPrevout } from '../../common/chain-writes/mempool-plan.js';
import type { ScriptCache } from '../../common/chain-writes/script-cache.js';
import { PG_NOW, removeMempoolTx } from './postgres-mempool-removal.js';
import type { PgNet } from './postgres-net.js';
import { PgScriptBook } from './postgres-scripts.js';
import { big, dec, num, rows, txidArray, type Queryable } from '../connection/postgres-sql.js';

/** Joins a staged txid (k.txid) to the stored txs with that txid, through the index on its first 8 bytes. */
function byTxid(txs: string, alias: string): string {
  return `JOIN ${txs} ${alias} ON substring(${alias}.txid from 1 for 8) = substring(k.txid from 1 for 8) AND ${alias}.txid = k.txid`;
}

/** Which of the txids are confirmed (a main-chain block holds them: their outputs are stored, a tx always has one). */
async function confirmedTxids(db: Queryable, n: PgNet, txids: Buffer[]): Promise<Set<string>> {
  const found = await rows(db, `SELECT DISTINCT k.txid FROM unnest($1::bytea[]) AS k(txid) ${byTxid(n.t.txs, 't')}
    WHERE EXISTS (SELECT 1 FROM ${n.t.outputs} o WHERE o.id = t.id)`, [txids]);
  return new Set(found.map((r) => bytesToHex(r.txid as Buffer)));
}

/**
 * The outputs the outpoints name: confirmed ones (of the txs with that txid, the newest whose output is still stored)
 * win over live mempool ones.
 */
async function prevoutsOf(db: Queryable, n: PgNet, ops: [Buffer[], number[]]): Promise<Map<string, MempoolPrevout>> {
  const { t } = n;
  const prevouts = new Map<string, MempoolPrevout>();
  const confirmed = await rows(db, `SELECT DISTINCT ON (k.txid, k.vout) k.txid, k.vout, o.value, o.script, s.script AS bytes, sp.txid AS spender
    FROM unnest($1::bytea[], $2::int[]) AS k(txid, vout) ${byTxid(t.txs, 'tx')}
    JOIN ${t.outputs} o ON o.id = tx.id AND o.vout = k.vout JOIN ${t.scripts} s ON s.key = o.script
    LEFT JOIN ${t.txs} sp ON sp.id = o.spent_by ORDER BY k.txid, k.vout, tx.id DESC`, ops);
  const mempool = await rows(db, `SELECT k.txid, k.vout, o.value, o.script, s.script AS bytes, NULL AS spender
    FROM unnest($1::bytea[], $2::int[]) AS k(txid, vout) JOIN ${t.mempoolOutputs} o ON o.txid = k.txid AND o.vout = k.vout
    JOIN ${t.scripts} s ON s.key = o.script`, ops);
  for (const r of [...confirmed, ...mempool]) {
    const key = outpointKey(bytesToHex(r.txid as Buffer), num(r.vout));
    if (prevouts.has(key)) continue;
    const spender = r.spender ? bytesToHex(r.spender as Buffer) : null;
    prevouts.set(key, { value: big(r.value), scriptId: num(r.script), script: r.bytes as Buffer, confirmedSpender: spender });
  }
  return prevouts;
}

export async function addMempoolTxsTx(db: pg.ClientBase, n: PgNet, entries: readonly MempoolEntry[], cache: ScriptCache): Promise<MempoolAddResult[]> {
  if (entries.length === 0) return [];
  const { t } = n;
  const ids = txidArray(entries.map((e) => e.tx.txid));
  const known = new Map<string, KnownState>();
  for (const r of await rows(db, `SELECT txid, removed FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [ids])) {
    known.set(bytesToHex(r.txid as Buffer), r.removed ? 'removed' : 'mempool');
  }
  for (const txid of await confirmedTxids(db, n, ids)) known.set(txid, 'confirmed');
  const needs = mempoolNeeds(entries);
  const ops: [Buffer[], number[]] = [txidArray(needs.outpoints.map((o) => o.txid)), needs.outpoints.map((o) => o.vout)];
  const prevouts = await prevoutsOf(db, n, ops);
  const spenders = new Map<string, string[]>();
  for (const r of await rows(db, `SELECT m.prev_txid, m.prev_vout, m.txid FROM unnest($1::bytea[], $2::int[]) AS k(txid, vout)
      JOIN ${t.mempoolSpends} m ON m.prev_txid = k.txid AND m.prev_vout = k.vout ORDER BY m.prev_txid, m.prev_vout, m.txid`, ops)) {
    const key = outpointKey(bytesToHex(r.prev_txid as Buffer), num(r.prev_vout));
    spenders.set(key, [...(spenders.get(key) ?? []), bytesToHex(r.txid as Buffer)]);
  }
  // New output scripts are stored with zero totals (and staged in the writer's cache, which stays complete).
  const book = new PgScriptBook(db, n, cache);
  const scriptIds = await book.resolve(needs.scripts);
  await book.write([]);
  const plan = planMempoolAdd(entries, { known, prevouts, spenders, scriptIds });
  if (plan.deleteRemoved.length > 0) await db.query(`DELETE FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [txidArray(plan.deleteRemoved)]);
  const x = plan.txs;
  await db.query(`INSERT INTO ${t.mempoolTxs} (txid, raw, size, weight, fee, seen_at, prevouts, double_spent, removed, removed_at)
    SELECT u.*, CASE WHEN u.removed THEN ${PG_NOW} END
    FROM unnest($1::bytea[], $2::bytea[], $3::int[], $4::int[], $5::bigint[], $6::bigint[], $7::bytea[], $8::bool[], $9::bool[])
      AS u(txid, raw, size, weight, fee, seen_at, prevouts, double_spent, removed)`,
  [txidArray(x.map((r) => r.txid)), x.map((r) => r.raw), x.map((r) => r.size), x.map((r) => r.weight), dec(x.map((r) => r.fee)),
    x.map((r) => r.seenAt), x.map((r) => r.prevouts), x.map((r) => r.doubleSpent), x.map((r) => r.removed)]);
  const o = plan.outputs;
  await db.query(`INSERT INTO ${t.mempoolOutputs} (txid, vout, value, script) SELECT * FROM unnest($1::bytea[], $2::int[], $3::bigint[], $4::bigint[])`,
    [txidArray(o.map((r) => r.txid)), o.map((r) => r.vout), dec(o.map((r) => r.value)), o.map((r) => r.scriptId)]);
  const s = plan.spends;
  await db.query(`INSERT INTO ${t.mempoolSpends} (prev_txid, prev_vout, txid, vin, script, value)
    SELECT * FROM unnest($1::bytea[], $2::int[], $3::bytea[], $4::int[], $5::bigint[], $6::bigint[])
    ON CONFLICT (prev_txid, prev_vout, txid) DO NOTHING`,
  [txidArray(s.map((r) => r.prevTxid)), s.map((r) => r.prevVout), txidArray(s.map((r) => r.txid)), s.map((r) => r.vin),
    s.map((r) => r.scriptId), dec(s.map((r) => r.value))]);
  if (plan.flagDoubleSpent.length > 0) {
    await db.query(`UPDATE ${t.mempoolTxs} SET double_spent = TRUE WHERE txid = ANY($1::bytea[])`, [txidArray(plan.flagDoubleSpent)]);
  }
  return plan.results;
}

export async function removeMempoolTxsTx(db: Queryable, n: PgNet, txids: readonly string[], reason: MempoolRemoveReason): Promise<string[]> {
  const removed: string[] = [];
  for (const txid of txids) {
    if (reason === 'confirmed') await removeMempoolTx(db, n, txid, 'delete', false, removed);
    else if (reason === 'evicted') await removeMempoolTx(db, n, txid, 'delete', true, removed);
    else await removeMempoolTx(db, n, txid, 'mark', true, removed);
  }
  return removed;
}
