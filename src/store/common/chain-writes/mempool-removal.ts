/**
 * Removing mempool txs, written once for both engines as plans (sql-plan.ts): by removeMempoolTxs and by
 * connectBlocks (confirmed and conflicting txs). Rare and small, so a few statements per tx are fine.
 */
import type { MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import type { ChainTables } from '../schema/chain-tables.js';
import { bytesToHex, hexToBytes, unpackPrevouts } from '../schema/codec.js';
import type { SqlDialect } from '../sql/sql-dialect.js';
import { exec, first, rows, type Plan } from '../sql/sql-plan.js';

/** delete: forget the tx; mark: keep it queryable as removed and double-spent. */
export type RemovalMode = 'delete' | 'mark';

interface MempoolTables {
  readonly t: ChainTables;
  readonly dialect: SqlDialect;
}

export function* mempoolIsEmpty(n: MempoolTables): Plan<boolean> {
  return (yield* first(`SELECT 1 FROM ${n.t.mempoolTxs} LIMIT 1`)) === undefined;
}

/** Removes a live mempool tx (and optionally its live descendants first); returns the txids removed. */
export function* removeMempoolTx(
  n: MempoolTables, txid: string, mode: RemovalMode, descendants: boolean, removed: string[] = [],
): Plan<string[]> {
  const { t, dialect: d } = n;
  const id = hexToBytes(txid);
  const row = yield* first(`SELECT prevouts FROM ${t.mempoolTxs} WHERE txid = ? AND removed = ${d.no}`, [id]);
  if (!row) return removed;
  if (descendants) {
    for (const child of yield* rows(`SELECT DISTINCT txid FROM ${t.mempoolSpends} WHERE prev_txid = ?`, [id])) {
      yield* removeMempoolTx(n, bytesToHex(child.txid as Buffer), mode, true, removed);
    }
  }
  yield* exec(`DELETE FROM ${t.mempoolOutputs} WHERE txid = ?`, [id]);
  for (const p of unpackPrevouts(row.prevouts as Buffer)) {
    if (p) yield* exec(`DELETE FROM ${t.mempoolSpends} WHERE prev_txid = ? AND prev_vout = ? AND txid = ?`, [hexToBytes(p.txid), p.vout, id]);
  }
  if (mode === 'delete') yield* exec(`DELETE FROM ${t.mempoolTxs} WHERE txid = ?`, [id]);
  else yield* exec(`UPDATE ${t.mempoolTxs} SET removed = ${d.yes}, double_spent = ${d.yes}, removed_at = ${d.now} WHERE txid = ?`, [id]);
  removed.push(txid);
  return removed;
}

/** confirmed: the tx alone; evicted: with its descendants; otherwise (a conflict) kept as removed, descendants too. */
export function* removeMempoolTxs(n: MempoolTables, txids: readonly string[], reason: MempoolRemoveReason): Plan<string[]> {
  const removed: string[] = [];
  for (const txid of txids) {
    if (reason === 'confirmed') yield* removeMempoolTx(n, txid, 'delete', false, removed);
    else if (reason === 'evicted') yield* removeMempoolTx(n, txid, 'delete', true, removed);
    else yield* removeMempoolTx(n, txid, 'mark', true, removed);
  }
  return removed;
}

/** Forgets up to `limit` txs removed before `removedBefore`: removal deleted their outputs and spends, so the row is all. */
export function* pruneRemovedMempool(n: MempoolTables, removedBefore: number, limit: number): Plan<number> {
  const { t, dialect: d } = n;
  return yield* exec(`DELETE FROM ${t.mempoolTxs} WHERE txid IN
    (SELECT txid FROM ${t.mempoolTxs} WHERE removed = ${d.yes} AND removed_at < ? LIMIT ?)`, [removedBefore, limit]);
}
