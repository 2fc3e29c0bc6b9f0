/** addMempoolTxs / removeMempoolTxs for SQLite: bulk reads, then the shared plan, then writes. */
import type { MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../core/store.js';
import { bytesToHex, hexToBytes, outpointKey } from '../common/codec.js';
import { mempoolNeeds, planMempoolAdd, type KnownState, type MempoolPrevout } from '../common/mempool-plan.js';
import { removeMempoolTx, SQLITE_NOW } from './sqlite-mempool-removal.js';
import { resolveScriptIds } from './sqlite-scripts.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

export function addMempoolTxsSync(st: Statements, net: number, entries: readonly MempoolEntry[]): MempoolAddResult[] {
  const known = new Map<string, KnownState>();
  const confirmedTx = st.get('SELECT 1 FROM txs WHERE net = ? AND txid = ? AND height IS NOT NULL');
  const mempoolTx = st.get('SELECT removed FROM mempool_txs WHERE net = ? AND txid = ?');
  for (const { tx } of entries) {
    const id = hexToBytes(tx.txid);
    if (confirmedTx.get(net, id)) { known.set(tx.txid, 'confirmed'); continue; }
    const row = mempoolTx.get(net, id) as Row | undefined;
    if (row) known.set(tx.txid, num(row.removed) === 1 ? 'removed' : 'mempool');
  }
  const needs = mempoolNeeds(entries);
  const prevouts = new Map<string, MempoolPrevout>();
  const spenders = new Map<string, string[]>();
  const confirmedOut = st.get(`SELECT o.value, o.script_id, s.script, o.spent_txid FROM outputs o JOIN scripts s ON s.id = o.script_id
    WHERE o.net = ? AND o.txid = ? AND o.vout = ?`);
  const mempoolOut = st.get(`SELECT o.value, o.script_id, s.script FROM mempool_outputs o JOIN scripts s ON s.id = o.script_id
    WHERE o.net = ? AND o.txid = ? AND o.vout = ?`);
  const spendSelect = st.get('SELECT txid FROM mempool_spends WHERE net = ? AND prev_txid = ? AND prev_vout = ?');
  for (const op of needs.outpoints) {
    const key = outpointKey(op.txid, op.vout);
    const txid = hexToBytes(op.txid);
    const c = confirmedOut.get(net, txid, op.vout) as Row | undefined;
    const m = c ? undefined : (mempoolOut.get(net, txid, op.vout) as Row | undefined);
    const row = c ?? m;
    if (row) {
      const spentBy = c?.spent_txid ? bytesToHex(c.spent_txid as Buffer) : null;
      prevouts.set(key, { value: big(row.value), scriptId: num(row.script_id), script: row.script as Buffer, confirmedSpender: spentBy });
    }
    const others = (spendSelect.all(net, txid, op.vout) as Row[]).map((r) => bytesToHex(r.txid as Buffer));
    if (others.length > 0) spenders.set(key, others);
  }
  const plan = planMempoolAdd(entries, { known, prevouts, spenders, scriptIds: resolveScriptIds(st, net, needs.scripts) });
  const del = st.get('DELETE FROM mempool_txs WHERE net = ? AND txid = ?');
  for (const txid of plan.deleteRemoved) del.run(net, hexToBytes(txid));
  const insTx = st.get(`INSERT INTO mempool_txs (net, txid, raw, size, vsize, weight, fee, seen_at, prevouts, double_spent, removed, removed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? = 1 THEN ${SQLITE_NOW} END)`);
  for (const t of plan.txs) {
    insTx.run(net, hexToBytes(t.txid), t.raw, t.size, t.vsize, t.weight, t.fee, t.seenAt, t.prevouts, t.doubleSpent ? 1 : 0, t.removed ? 1 : 0, t.removed ? 1 : 0);
  }
  const insOut = st.get('INSERT INTO mempool_outputs (net, txid, vout, value, script_id) VALUES (?, ?, ?, ?, ?)');
  for (const o of plan.outputs) insOut.run(net, hexToBytes(o.txid), o.vout, o.value, o.scriptId);
  const insSpend = st.get(`INSERT OR REPLACE INTO mempool_spends (net, prev_txid, prev_vout, txid, vin, script_id, value)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  for (const s of plan.spends) insSpend.run(net, hexToBytes(s.prevTxid), s.prevVout, hexToBytes(s.txid), s.vin, s.scriptId, s.value);
  const flag = st.get('UPDATE mempool_txs SET double_spent = 1 WHERE net = ? AND txid = ?');
  for (const txid of plan.flagDoubleSpent) flag.run(net, hexToBytes(txid));
  return plan.results;
}

export function removeMempoolTxsSync(st: Statements, net: number, txids: readonly string[], reason: MempoolRemoveReason): string[] {
  const removed: string[] = [];
  for (const txid of txids) {
    if (reason === 'confirmed') removeMempoolTx(st, net, txid, 'delete', false, removed);
    else if (reason === 'evicted') removeMempoolTx(st, net, txid, 'delete', true, removed);
    else removeMempoolTx(st, net, txid, 'mark', true, removed);
  }
  return removed;
}
