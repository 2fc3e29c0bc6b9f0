/** Removing mempool txs in PostgreSQL (rare and small, so a few statements per tx are fine). */
import { bytesToHex, hexToBytes, unpackPrevouts } from '../common/codec.js';
import { one, rows, type Queryable } from './postgres-sql.js';

/**
 * The database's clock for removed_at in whole unix seconds, rounded down as SQLite's strftime('%s') (a bare cast to
 * bigint rounds half up): the removal paths are not given the indexer's clock.
 */
export const PG_NOW = 'floor(EXTRACT(EPOCH FROM now()))::bigint';

export type RemovalMode = 'delete' | 'mark';

export async function mempoolIsEmpty(db: Queryable, net: number): Promise<boolean> {
  return (await one(db, 'SELECT 1 FROM mempool_txs WHERE net = $1 LIMIT 1', [net])) === undefined;
}

export async function removeMempoolTx(
  db: Queryable, net: number, txid: string, mode: RemovalMode, descendants: boolean, removed: string[] = [],
): Promise<string[]> {
  const id = hexToBytes(txid);
  const row = await one(db, 'SELECT prevouts FROM mempool_txs WHERE net = $1 AND txid = $2 AND NOT removed', [net, id]);
  if (!row) return removed;
  if (descendants) {
    for (const child of await rows(db, 'SELECT DISTINCT txid FROM mempool_spends WHERE net = $1 AND prev_txid = $2', [net, id])) {
      await removeMempoolTx(db, net, bytesToHex(child.txid as Buffer), mode, true, removed);
    }
  }
  await db.query('DELETE FROM mempool_outputs WHERE net = $1 AND txid = $2', [net, id]);
  const prevs = unpackPrevouts(row.prevouts as Buffer).flatMap((p) => (p ? [p] : []));
  await db.query(
    `DELETE FROM mempool_spends m USING unnest($2::bytea[], $3::int[]) AS k(txid, vout)
     WHERE m.net = $1 AND m.prev_txid = k.txid AND m.prev_vout = k.vout AND m.txid = $4`,
    [net, prevs.map((p) => hexToBytes(p.txid)), prevs.map((p) => p.vout), id],
  );
  if (mode === 'delete') await db.query('DELETE FROM mempool_txs WHERE net = $1 AND txid = $2', [net, id]);
  else await db.query(`UPDATE mempool_txs SET removed = TRUE, double_spent = TRUE, removed_at = ${PG_NOW} WHERE net = $1 AND txid = $2`, [net, id]);
  removed.push(txid);
  return removed;
}
