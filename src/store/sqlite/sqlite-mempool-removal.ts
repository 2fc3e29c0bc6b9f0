/** Removing mempool txs, shared by removeMempoolTxs and by connectBlocks (confirmed and conflicting txs). */
import { hexToBytes, unpackPrevouts } from '../common/codec.js';
import type { Row, Statements } from './sqlite-statements.js';

/** The database's clock (unix seconds) for removed_at: the removal paths are not given the indexer's clock. */
export const SQLITE_NOW = "CAST(strftime('%s', 'now') AS INTEGER)";

/** delete: forget the tx; mark: keep it queryable as removed and double-spent. */
export type RemovalMode = 'delete' | 'mark';

export function mempoolIsEmpty(st: Statements, net: number): boolean {
  return st.get('SELECT 1 FROM mempool_txs WHERE net = ? LIMIT 1').get(net) === undefined;
}

/** Removes a live mempool tx (and optionally its live descendants first); returns the txids removed. */
export function removeMempoolTx(
  st: Statements, net: number, txid: string, mode: RemovalMode, descendants: boolean, removed: string[] = [],
): string[] {
  const id = hexToBytes(txid);
  const row = st.get('SELECT prevouts FROM mempool_txs WHERE net = ? AND txid = ? AND removed = 0').get(net, id) as Row | undefined;
  if (!row) return removed;
  if (descendants) {
    const children = st.get('SELECT DISTINCT txid FROM mempool_spends WHERE net = ? AND prev_txid = ?').all(net, id) as Row[];
    for (const child of children) removeMempoolTx(st, net, (child.txid as Buffer).toString('hex'), mode, true, removed);
  }
  st.get('DELETE FROM mempool_outputs WHERE net = ? AND txid = ?').run(net, id);
  const delSpend = st.get('DELETE FROM mempool_spends WHERE net = ? AND prev_txid = ? AND prev_vout = ? AND txid = ?');
  for (const p of unpackPrevouts(row.prevouts as Buffer)) if (p) delSpend.run(net, hexToBytes(p.txid), p.vout, id);
  if (mode === 'delete') st.get('DELETE FROM mempool_txs WHERE net = ? AND txid = ?').run(net, id);
  else st.get(`UPDATE mempool_txs SET removed = 1, double_spent = 1, removed_at = ${SQLITE_NOW} WHERE net = ? AND txid = ?`).run(net, id);
  removed.push(txid);
  return removed;
}
