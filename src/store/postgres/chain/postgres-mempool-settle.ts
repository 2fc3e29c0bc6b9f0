/** The mempool when a batch of blocks is connected (PostgreSQL): set-based reads and removals, the shared plans for conflicts. */
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { spentOutpoints } from '../../common/chain-writes/batch-needs.js';
import type { TxRow } from '../../common/chain-writes/block-rows.js';
import { mempoolIsEmpty, removeMempoolTx } from '../../common/chain-writes/mempool-removal.js';
import { bytesToHex, hexToBytes, unpackPrevouts } from '../../common/schema/codec.js';
import type { PgNet } from './postgres-net.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { num, rows, txidArray, type Queryable } from '../connection/postgres-sql.js';

/**
 * Confirmed txs leave the mempool (their first-seen time moves to their tx rows); mempool txs spending what the
 * batch spends are double spends. Set-based: the confirmed txs' rows go in three statements whatever their number. A
 * block at the tip confirms thousands of mempool txs (4,000 in the real-node bench), and a removal plan per tx (its
 * prevouts read, its outputs, spends and row deleted: five round trips each) took 20-35 s a block there.
 */
export async function settleMempool(
  db: Queryable, n: PgNet, blocks: readonly BlockToConnect[], txs: TxRow[],
): Promise<{ confirmed: string[]; conflicted: string[] }> {
  const { t } = n;
  const confirmed: string[] = [];
  const conflicted: string[] = [];
  if (await runPostgres(db, mempoolIsEmpty(n))) return { confirmed, conflicted };
  const known = new Map<string, { seenAt: number; removed: boolean; prevouts: Buffer }>();
  for (const r of await rows(db, `SELECT txid, seen_at, removed, prevouts FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [txs.map((x) => x.txid)])) {
    known.set(bytesToHex(r.txid as Buffer), { seenAt: num(r.seen_at), removed: r.removed as boolean, prevouts: r.prevouts as Buffer });
  }
  const live: Buffer[] = [];
  const spends = { prevTxid: [] as Buffer[], prevVout: [] as number[], txid: [] as Buffer[] };
  const stored: Buffer[] = [];
  for (const tx of txs) {
    const row = known.get(tx.txidHex);
    if (!row) continue;
    tx.firstSeen = row.seenAt;
    stored.push(tx.txid);
    if (row.removed) continue;
    // A live tx has its outputs and the outpoints it spends in the mempool tables (a removed one had them taken).
    live.push(tx.txid);
    confirmed.push(tx.txidHex);
    for (const p of unpackPrevouts(row.prevouts)) {
      if (!p) continue;
      spends.prevTxid.push(hexToBytes(p.txid));
      spends.prevVout.push(p.vout);
      spends.txid.push(tx.txid);
    }
  }
  if (live.length > 0) {
    await db.query(`DELETE FROM ${t.mempoolOutputs} WHERE txid = ANY($1::bytea[])`, [live]);
    await db.query(`DELETE FROM ${t.mempoolSpends} s USING unnest($1::bytea[], $2::int[], $3::bytea[]) AS k(prev_txid, prev_vout, txid)
      WHERE s.prev_txid = k.prev_txid AND s.prev_vout = k.prev_vout AND s.txid = k.txid`, [spends.prevTxid, spends.prevVout, spends.txid]);
  }
  if (stored.length > 0) await db.query(`DELETE FROM ${t.mempoolTxs} WHERE txid = ANY($1::bytea[])`, [stored]);
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
