/** Removing mempool txs in PostgreSQL (rare and small, so a few statements per tx are fine), shared with connectBlocks. */
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { spentOutpoints } from '../../common/chain-writes/batch-needs.js';
import type { TxRow } from '../../common/chain-writes/block-rows.js';
import { bytesToHex, hexToBytes, unpackPrevouts } from '../../common/schema/codec.js';
import type { PgNet } from './postgres-net.js';
import { num, one, rows, txidArray, type Queryable } from '../connection/postgres-sql.js';

/**
 * The database's clock for removed_at in whole unix seconds, rounded down as SQLite's strftime('%s') (a bare cast to
 * bigint rounds half up): the removal paths are not given the indexer's clock.
 */
export const PG_NOW = 'floor(EXTRACT(EPOCH FROM now()))::bigint';

/** delete: forget the tx; mark: keep it queryable as removed and double-spent. */
export type RemovalMode = 'delete' | 'mark';

export async function mempoolIsEmpty(db: Queryable, n: PgNet): Promise<boolean> {
  return (await one(db, `SELECT 1 FROM ${n.t.mempoolTxs} LIMIT 1`)) === undefined;
}

/** Removes a live mempool tx (and optionally its live descendants first); returns the txids removed. */
export async function removeMempoolTx(
  db: Queryable, n: PgNet, txid: string, mode: RemovalMode, descendants: boolean, removed: string[] = [],
): Promise<string[]> {
  const { t } = n;
  const id = hexToBytes(txid);
  const row = await one(db, `SELECT prevouts FROM ${t.mempoolTxs} WHERE txid = $1 AND NOT removed`, [id]);
  if (!row) return removed;
  if (descendants) {
    for (const child of await rows(db, `SELECT DISTINCT txid FROM ${t.mempoolSpends} WHERE prev_txid = $1`, [id])) {
      await removeMempoolTx(db, n, bytesToHex(child.txid as Buffer), mode, true, removed);
    }
  }
  await db.query(`DELETE FROM ${t.mempoolOutputs} WHERE txid = $1`, [id]);
  const prevs = unpackPrevouts(row.prevouts as Buffer).flatMap((p) => (p ? [p] : []));
  await db.query(
    `DELETE FROM ${t.mempoolSpends} m USING unnest($1::bytea[], $2::int[]) AS k(txid, vout)
     WHERE m.prev_txid = k.txid AND m.prev_vout = k.vout AND m.txid = $3`,
    [prevs.map((p) => hexToBytes(p.txid)), prevs.map((p) => p.vout), id],
  );
  if (mode === 'delete') await db.query(`DELETE FROM ${t.mempoolTxs} WHERE txid = $1`, [id]);
  else await db.query(`UPDATE ${t.mempoolTxs} SET removed = TRUE, double_spent = TRUE, removed_at = ${PG_NOW} WHERE txid = $1`, [id]);
  removed.push(txid);
  return removed;
}

/**
 * Confirmed txs leave the mempool (their first-seen time moves to their tx rows); mempool txs spending what the
 * batch spends are double spends. Reads are one statement each; removals are per tx (few when following the chain).
 */
export async function settleMempool(
  db: Queryable, n: PgNet, blocks: readonly BlockToConnect[], txs: TxRow[],
): Promise<{ confirmed: string[]; conflicted: string[] }> {
  const { t } = n;
  const confirmed: string[] = [];
  const conflicted: string[] = [];
  if (await mempoolIsEmpty(db, n)) return { confirmed, conflicted };
  const known = new Map<string, { seenAt: number; removed: boolean }>();
  for (const r of await rows(db, `SELECT txid, seen_at, removed FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [txs.map((x) => x.txid)])) {
    known.set(bytesToHex(r.txid as Buffer), { seenAt: num(r.seen_at), removed: r.removed as boolean });
  }
  for (const tx of txs) {
    const row = known.get(tx.txidHex);
    if (!row) continue;
    tx.firstSeen = row.seenAt;
    if (!row.removed) {
      await removeMempoolTx(db, n, tx.txidHex, 'delete', false);
      confirmed.push(tx.txidHex);
    }
    await db.query(`DELETE FROM ${t.mempoolTxs} WHERE txid = $1`, [tx.txid]);
  }
  const spent = spentOutpoints(blocks);
  const spenders = await rows(db, `SELECT k.spender, m.txid FROM unnest($1::bytea[], $2::int[], $3::text[]) WITH ORDINALITY AS k(txid, vout, spender, i)
    JOIN ${t.mempoolSpends} m ON m.prev_txid = k.txid AND m.prev_vout = k.vout ORDER BY k.i, m.txid`,
  [txidArray(spent.map((s) => s.outpoint.txid)), spent.map((s) => s.outpoint.vout), spent.map((s) => s.spender)]);
  for (const r of spenders) {
    const other = bytesToHex(r.txid as Buffer);
    if (other !== r.spender) await removeMempoolTx(db, n, other, 'mark', true, conflicted);
  }
  return { confirmed, conflicted };
}
