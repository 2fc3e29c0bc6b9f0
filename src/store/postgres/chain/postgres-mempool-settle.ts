/** The mempool when a batch of blocks is connected (PostgreSQL): set-based reads, the shared removal plans. */
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { spentOutpoints } from '../../common/chain-writes/batch-needs.js';
import type { TxRow } from '../../common/chain-writes/block-rows.js';
import { mempoolIsEmpty, removeMempoolTx } from '../../common/chain-writes/mempool-removal.js';
import { bytesToHex } from '../../common/schema/codec.js';
import type { PgNet } from './postgres-net.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { num, rows, txidArray, type Queryable } from '../connection/postgres-sql.js';

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
  if (await runPostgres(db, mempoolIsEmpty(n))) return { confirmed, conflicted };
  const known = new Map<string, { seenAt: number; removed: boolean }>();
  for (const r of await rows(db, `SELECT txid, seen_at, removed FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [txs.map((x) => x.txid)])) {
    known.set(bytesToHex(r.txid as Buffer), { seenAt: num(r.seen_at), removed: r.removed as boolean });
  }
  for (const tx of txs) {
    const row = known.get(tx.txidHex);
    if (!row) continue;
    tx.firstSeen = row.seenAt;
    if (!row.removed) {
      await runPostgres(db, removeMempoolTx(n, tx.txidHex, 'delete', false));
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
    if (other !== r.spender) await runPostgres(db, removeMempoolTx(n, other, 'mark', true, conflicted));
  }
  return { confirmed, conflicted };
}
