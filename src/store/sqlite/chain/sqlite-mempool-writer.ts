/** addMempoolTxs / removeMempoolTxs for SQLite: bulk reads, then the shared plan, then writes. */
import type { MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import { bytesToHex, hexToBytes, outpointKey } from '../../common/schema/codec.js';
import { mempoolNeeds, planMempoolAdd, type KnownState, type MempoolPrevout } from '../../common/chain-writes/mempool-plan.js';
import { txIdsOf } from './sqlite-chain-writer.js';
import { removeMempoolTx, SQLITE_NOW } from './sqlite-mempool-removal.js';
import type { SqliteNet } from './sqlite-net.js';
import { ensureScripts } from './sqlite-scripts.js';
import { big, num, type Row } from '../connection/sqlite-statements.js';

/** A confirmed output by outpoint: of the txs with that txid, the one whose output is still stored (main chain). */
function confirmedOutput(n: SqliteNet, txid: Buffer, vout: number): Row | undefined {
  const select = n.st.get(`SELECT o.value, o.script, s.script AS bytes, sp.txid AS spender FROM ${n.t.outputs} o
    JOIN ${n.t.scripts} s ON s.key = o.script LEFT JOIN ${n.t.txs} sp ON sp.id = o.spent_by WHERE o.id = ? AND o.vout = ?`);
  for (const id of txIdsOf(n, txid)) {
    const row = select.get(id, vout) as Row | undefined;
    if (row) return row;
  }
  return undefined;
}

/** True when a main-chain block holds the tx (its outputs are stored; a tx always has one). */
function isConfirmed(n: SqliteNet, txid: Buffer): boolean {
  const anyOutput = n.st.get(`SELECT 1 FROM ${n.t.outputs} WHERE id = ? LIMIT 1`);
  return txIdsOf(n, txid).some((id) => anyOutput.get(id) !== undefined);
}

export function addMempoolTxsSync(n: SqliteNet, entries: readonly MempoolEntry[]): MempoolAddResult[] {
  const { st, t } = n;
  const known = new Map<string, KnownState>();
  const mempoolTx = st.get(`SELECT removed FROM ${t.mempoolTxs} WHERE txid = ?`);
  for (const { tx } of entries) {
    const id = hexToBytes(tx.txid);
    if (isConfirmed(n, id)) { known.set(tx.txid, 'confirmed'); continue; }
    const row = mempoolTx.get(id) as Row | undefined;
    if (row) known.set(tx.txid, num(row.removed) === 1 ? 'removed' : 'mempool');
  }
  const needs = mempoolNeeds(entries);
  const prevouts = new Map<string, MempoolPrevout>();
  const spenders = new Map<string, string[]>();
  const mempoolOut = st.get(`SELECT o.value, o.script, s.script AS bytes FROM ${t.mempoolOutputs} o JOIN ${t.scripts} s ON s.key = o.script
    WHERE o.txid = ? AND o.vout = ?`);
  const spendSelect = st.get(`SELECT txid FROM ${t.mempoolSpends} WHERE prev_txid = ? AND prev_vout = ?`);
  for (const op of needs.outpoints) {
    const key = outpointKey(op.txid, op.vout);
    const txid = hexToBytes(op.txid);
    const c = confirmedOutput(n, txid, op.vout);
    const row = c ?? (mempoolOut.get(txid, op.vout) as Row | undefined);
    if (row) {
      const spentBy = c?.spender ? bytesToHex(c.spender as Buffer) : null;
      prevouts.set(key, { value: big(row.value), scriptId: num(row.script), script: row.bytes as Buffer, confirmedSpender: spentBy });
    }
    const others = (spendSelect.all(txid, op.vout) as Row[]).map((r) => bytesToHex(r.txid as Buffer));
    if (others.length > 0) spenders.set(key, others);
  }
  const plan = planMempoolAdd(entries, { known, prevouts, spenders, scriptIds: ensureScripts(n, needs.scripts) });
  const del = st.get(`DELETE FROM ${t.mempoolTxs} WHERE txid = ?`);
  for (const txid of plan.deleteRemoved) del.run(hexToBytes(txid));
  const insTx = st.get(`INSERT INTO ${t.mempoolTxs} (txid, raw, size, weight, fee, seen_at, prevouts, double_spent, removed, removed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? = 1 THEN ${SQLITE_NOW} END)`);
  for (const r of plan.txs) {
    insTx.run(hexToBytes(r.txid), r.raw, r.size, r.weight, r.fee, r.seenAt, r.prevouts, r.doubleSpent ? 1 : 0, r.removed ? 1 : 0, r.removed ? 1 : 0);
  }
  const insOut = st.get(`INSERT INTO ${t.mempoolOutputs} (txid, vout, value, script) VALUES (?, ?, ?, ?)`);
  for (const o of plan.outputs) insOut.run(hexToBytes(o.txid), o.vout, o.value, o.scriptId);
  const insSpend = st.get(`INSERT OR REPLACE INTO ${t.mempoolSpends} (prev_txid, prev_vout, txid, vin, script, value) VALUES (?, ?, ?, ?, ?, ?)`);
  for (const s of plan.spends) insSpend.run(hexToBytes(s.prevTxid), s.prevVout, hexToBytes(s.txid), s.vin, s.scriptId, s.value);
  const flag = st.get(`UPDATE ${t.mempoolTxs} SET double_spent = 1 WHERE txid = ?`);
  for (const txid of plan.flagDoubleSpent) flag.run(hexToBytes(txid));
  return plan.results;
}

export function removeMempoolTxsSync(n: SqliteNet, txids: readonly string[], reason: MempoolRemoveReason): string[] {
  const removed: string[] = [];
  for (const txid of txids) {
    if (reason === 'confirmed') removeMempoolTx(n, txid, 'delete', false, removed);
    else if (reason === 'evicted') removeMempoolTx(n, txid, 'delete', true, removed);
    else removeMempoolTx(n, txid, 'mark', true, removed);
  }
  return removed;
}
