/** Removing mempool txs, shared by removeMempoolTxs and by connectBlocks (confirmed and conflicting txs). */
import { hexToBytes, unpackPrevouts } from '../../common/schema/codec.js';
import type { SqliteNet } from './sqlite-net.js';
import type { Row } from '../connection/sqlite-statements.js';

/** The database's clock (unix seconds) for removed_at: the removal paths are not given the indexer's clock. */
export const SQLITE_NOW = "CAST(strftime('%s', 'now') AS INTEGER)";

/** delete: forget the tx; mark: keep it queryable as removed and double-spent. */
export type RemovalMode = 'delete' | 'mark';

export function mempoolIsEmpty(n: SqliteNet): boolean {
  return n.st.get(`SELECT 1 FROM ${n.t.mempoolTxs} LIMIT 1`).get() === undefined;
}

/** Removes a live mempool tx (and optionally its live descendants first); returns the txids removed. */
export function removeMempoolTx(n: SqliteNet, txid: string, mode: RemovalMode, descendants: boolean, removed: string[] = []): string[] {
  const { st, t } = n;
  const id = hexToBytes(txid);
  const row = st.get(`SELECT prevouts FROM ${t.mempoolTxs} WHERE txid = ? AND removed = 0`).get(id) as Row | undefined;
  if (!row) return removed;
  if (descendants) {
    const children = st.get(`SELECT DISTINCT txid FROM ${t.mempoolSpends} WHERE prev_txid = ?`).all(id) as Row[];
    for (const child of children) removeMempoolTx(n, (child.txid as Buffer).toString('hex'), mode, true, removed);
  }
  st.get(`DELETE FROM ${t.mempoolOutputs} WHERE txid = ?`).run(id);
  const delSpend = st.get(`DELETE FROM ${t.mempoolSpends} WHERE prev_txid = ? AND prev_vout = ? AND txid = ?`);
  for (const p of unpackPrevouts(row.prevouts as Buffer)) if (p) delSpend.run(hexToBytes(p.txid), p.vout, id);
  if (mode === 'delete') st.get(`DELETE FROM ${t.mempoolTxs} WHERE txid = ?`).run(id);
  else st.get(`UPDATE ${t.mempoolTxs} SET removed = 1, double_spent = 1, removed_at = ${SQLITE_NOW} WHERE txid = ?`).run(id);
  removed.push(txid);
  return removed;
}
