/** addMempoolTxs / removeMempoolTxs for PostgreSQL: bulk reads, the shared plan, then set-based writes. */
import type { MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../core/store.js';
import { bytesToHex, outpointKey } from '../common/codec.js';
import { mempoolNeeds, planMempoolAdd, type KnownState, type MempoolPrevout } from '../common/mempool-plan.js';
import { PG_NOW, removeMempoolTx } from './postgres-mempool-removal.js';
import { resolveScriptIds } from './postgres-scripts.js';
import { big, dec, num, rows, txidArray, type Queryable } from './postgres-sql.js';

export async function addMempoolTxsTx(db: Queryable, net: number, entries: readonly MempoolEntry[]): Promise<MempoolAddResult[]> {
  if (entries.length === 0) return [];
  const ids = txidArray(entries.map((e) => e.tx.txid));
  const known = new Map<string, KnownState>();
  for (const r of await rows(db, 'SELECT txid, removed FROM mempool_txs WHERE net = $1 AND txid = ANY($2::bytea[])', [net, ids])) {
    known.set(bytesToHex(r.txid as Buffer), r.removed ? 'removed' : 'mempool');
  }
  for (const r of await rows(db, 'SELECT txid FROM txs WHERE net = $1 AND txid = ANY($2::bytea[]) AND height IS NOT NULL', [net, ids])) {
    known.set(bytesToHex(r.txid as Buffer), 'confirmed');
  }
  const needs = mempoolNeeds(entries);
  const ops = [txidArray(needs.outpoints.map((o) => o.txid)), needs.outpoints.map((o) => o.vout)];
  const prevouts = new Map<string, MempoolPrevout>();
  const found = await rows(db, `SELECT o.txid, o.vout, o.value, o.script_id, s.script, o.spent_txid FROM unnest($2::bytea[], $3::int[]) AS k(txid, vout)
      JOIN outputs o ON o.net = $1 AND o.txid = k.txid AND o.vout = k.vout JOIN scripts s ON s.id = o.script_id
    UNION ALL SELECT o.txid, o.vout, o.value, o.script_id, s.script, NULL FROM unnest($2::bytea[], $3::int[]) AS k(txid, vout)
      JOIN mempool_outputs o ON o.net = $1 AND o.txid = k.txid AND o.vout = k.vout JOIN scripts s ON s.id = o.script_id`, [net, ...ops]);
  for (const r of found) {
    const key = outpointKey(bytesToHex(r.txid as Buffer), num(r.vout));
    if (prevouts.has(key)) continue; // confirmed rows come first and win
    const spentBy = r.spent_txid ? bytesToHex(r.spent_txid as Buffer) : null;
    prevouts.set(key, { value: big(r.value), scriptId: num(r.script_id), script: r.script as Buffer, confirmedSpender: spentBy });
  }
  const spenders = new Map<string, string[]>();
  for (const r of await rows(db, `SELECT m.prev_txid, m.prev_vout, m.txid FROM unnest($2::bytea[], $3::int[]) AS k(txid, vout)
      JOIN mempool_spends m ON m.net = $1 AND m.prev_txid = k.txid AND m.prev_vout = k.vout`, [net, ...ops])) {
    const key = outpointKey(bytesToHex(r.prev_txid as Buffer), num(r.prev_vout));
    spenders.set(key, [...(spenders.get(key) ?? []), bytesToHex(r.txid as Buffer)]);
  }
  const plan = planMempoolAdd(entries, { known, prevouts, spenders, scriptIds: await resolveScriptIds(db, net, needs.scripts) });
  if (plan.deleteRemoved.length > 0) await db.query('DELETE FROM mempool_txs WHERE net = $1 AND txid = ANY($2::bytea[])', [net, txidArray(plan.deleteRemoved)]);
  const t = plan.txs;
  await db.query(`INSERT INTO mempool_txs (net, txid, raw, size, vsize, weight, fee, seen_at, prevouts, double_spent, removed, removed_at)
    SELECT $1, u.*, CASE WHEN u.removed THEN ${PG_NOW} END
    FROM unnest($2::bytea[], $3::bytea[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::bigint[], $9::bytea[], $10::bool[], $11::bool[])
      AS u(txid, raw, size, vsize, weight, fee, seen_at, prevouts, double_spent, removed)`,
  [net, txidArray(t.map((x) => x.txid)), t.map((x) => x.raw), t.map((x) => x.size), t.map((x) => x.vsize), t.map((x) => x.weight),
    dec(t.map((x) => x.fee)), t.map((x) => x.seenAt), t.map((x) => x.prevouts), t.map((x) => x.doubleSpent), t.map((x) => x.removed)]);
  const o = plan.outputs;
  await db.query(`INSERT INTO mempool_outputs (net, txid, vout, value, script_id)
    SELECT $1, * FROM unnest($2::bytea[], $3::int[], $4::bigint[], $5::bigint[])`,
  [net, txidArray(o.map((x) => x.txid)), o.map((x) => x.vout), dec(o.map((x) => x.value)), o.map((x) => x.scriptId)]);
  const s = plan.spends;
  await db.query(`INSERT INTO mempool_spends (net, prev_txid, prev_vout, txid, vin, script_id, value)
    SELECT $1, * FROM unnest($2::bytea[], $3::int[], $4::bytea[], $5::int[], $6::bigint[], $7::bigint[])
    ON CONFLICT (net, prev_txid, prev_vout, txid) DO NOTHING`,
  [net, txidArray(s.map((x) => x.prevTxid)), s.map((x) => x.prevVout), txidArray(s.map((x) => x.txid)), s.map((x) => x.vin),
    s.map((x) => x.scriptId), dec(s.map((x) => x.value))]);
  if (plan.flagDoubleSpent.length > 0) {
    await db.query('UPDATE mempool_txs SET double_spent = TRUE WHERE net = $1 AND txid = ANY($2::bytea[])', [net, txidArray(plan.flagDoubleSpent)]);
  }
  return plan.results;
}

export async function removeMempoolTxsTx(db: Queryable, net: number, txids: readonly string[], reason: MempoolRemoveReason): Promise<string[]> {
  const removed: string[] = [];
  for (const txid of txids) {
    if (reason === 'confirmed') await removeMempoolTx(db, net, txid, 'delete', false, removed);
    else if (reason === 'evicted') await removeMempoolTx(db, net, txid, 'delete', true, removed);
    else await removeMempoolTx(db, net, txid, 'mark', true, removed);
  }
  return removed;
}
