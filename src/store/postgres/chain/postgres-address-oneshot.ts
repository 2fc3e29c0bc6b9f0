/**
 * The common address reads of PostgreSQL in one round trip each: balance (script row and mempool rows), the first
 * FIFO page of history and of unspent outputs (the script row, the page and the mempool rows, one statement, one
 * prepared plan). Each round trip costs both processes more CPU than the rows it carries (on the 100k-tx bench chain
 * a page of an ordinary address was four statements: tip, script, page, mempool).
 *
 * They look the script up at its base key only: the statement reports whether the row there holds the script's bytes
 * (`same`). No row: the script was never stored (rows are never deleted, so its probe sequence would have ended
 * there). Other bytes: a key collision (rare at 53 bits); the caller then takes the probing path. So every answer is
 * the one the probing path gives.
 */
import { mempoolSumsOf, mempoolSumsSql, type IoRow, type MempoolSums } from '../../common/chain-reads/history-assembly.js';
import { bytesToHex } from '../../common/schema/codec.js';
import type { PgNet } from './postgres-net.js';
import { big, num, preparedRows, type Queryable, type Row } from '../connection/postgres-sql.js';

/**
 * Joins the block holding tx id `id` as `alias` (block ranges never overlap: the newest block starting at or before
 * the id, which holds it when its range reaches it: callers check `${id} < ${alias}.first_tx + ${alias}.tx_count`).
 * A LATERAL join: PostgreSQL reads the block row in the same index probe (the shared reads use a scalar subquery).
 */
export function blockOfTx(blocks: string, id: string, alias = 'b'): string {
  return `CROSS JOIN LATERAL (SELECT hash, height, time, is_orphan, first_tx, tx_count FROM ${blocks}
    WHERE first_tx <= ${id} ORDER BY first_tx DESC LIMIT 1) ${alias}`;
}

/** What one statement found: null = a collision at the base key (take the probing path); `stored` false = no such script. */
export type OneShot<T> = null | { stored: false } | { stored: true; key: number; script: Row | null } & T;

/** The mempool io rows of the script whose key is `key` (an SQL expression). */
export function mempoolIoSql(n: PgNet, key: string): string {
  const { t } = n;
  return `SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM ${t.mempoolOutputs} o
        JOIN ${t.mempoolTxs} t ON t.txid = o.txid WHERE o.script = ${key}
      UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, sp.vin AS n, sp.value FROM ${t.mempoolSpends} sp
        JOIN ${t.mempoolTxs} t ON t.txid = sp.txid WHERE sp.script = ${key}`;
}

export function ioRow(r: Row): IoRow {
  return {
    txid: bytesToHex(r.txid as Buffer), height: r.height == null ? null : num(r.height), position: r.position == null ? null : num(r.position),
    time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value),
  };
}

/** Splits a one-shot result: part 0 is the script row (absent: not stored), 1 the page, 2 the mempool. */
function parts(found: Row[], key: number): OneShot<{ page: Row[]; mempool: Row[] }> {
  const head = found.find((r) => num(r.part) === 0);
  if (!head) return { stored: false };
  if (head.same !== true) return null;
  return { stored: true, key, script: head, page: found.filter((r) => num(r.part) === 1), mempool: found.filter((r) => num(r.part) === 2) };
}

/** The script's row with its totals, and its mempool figures (summed by the server). */
export async function totalsOneShot(db: Queryable, n: PgNet, key: number, script: Uint8Array, txCount = true): Promise<OneShot<{ mempool: MempoolSums }>> {
  const found = await preparedRows(db, `SELECT s.script = $2 AS same, s.received, s.sent, s.tx_count, s.received_count, s.sent_count,
      ${mempoolSumsSql(n.t.mempoolOutputs, n.t.mempoolSpends, 's.key', txCount, 'whole')}
    FROM ${n.t.scripts} s WHERE s.key = $1`, [key, script]);
  if (found.length === 0) return { stored: false };
  if (found[0]!.same !== true) return null;
  return { stored: true, key, script: found[0]!, mempool: mempoolSumsOf(found[0]!) };
}

/**
 * The first page (FIFO, after the cursor id if any) of a script's history: its io rows in id order, and the mempool
 * io rows when asked. `filter` is the history rows' kind condition.
 */
export async function historyOneShot(
  db: Queryable, n: PgNet, key: number, script: Uint8Array,
  q: { filter: string; cursor: number | null; limit: number; offset: number; mempool: boolean },
): Promise<OneShot<{ page: IoRow[]; mempool: IoRow[] }>> {
  const { t } = n;
  const cmp = q.cursor !== null ? ' AND h.id > $5' : '';
  const found = await preparedRows(db, `WITH s AS (SELECT key, script = $2 AS same FROM ${t.scripts} WHERE key = $1),
    page AS (SELECT h.id FROM ${t.history} h JOIN s ON s.same AND h.script = s.key WHERE true${q.filter}${cmp} ORDER BY h.id LIMIT $3 OFFSET $4)
    SELECT 0 AS part, NULL::bigint AS id, s.same, NULL::bytea AS txid, NULL::int AS height, NULL::bigint AS position, NULL::bigint AS time,
      NULL::int AS io, NULL::int AS n, NULL::bigint AS value FROM s
    UNION ALL SELECT 1, p.id, NULL, tx.txid, b.height, p.id - b.first_tx, b.time, x.io, x.n, x.value FROM page p
      JOIN ${t.txs} tx ON tx.id = p.id ${blockOfTx(t.blocks, 'p.id')}
      CROSS JOIN LATERAL (SELECT 0 AS io, o.vout AS n, o.value FROM ${t.outputs} o WHERE o.id = p.id AND o.script = $1
        UNION ALL SELECT 1, o.spent_vin, o.value FROM ${t.outputs} o WHERE o.spent_by = p.id AND o.script = $1) x
    ${q.mempool ? `UNION ALL SELECT 2, NULL, NULL, m.txid, NULL, NULL, m.time, m.io, m.n, m.value FROM s CROSS JOIN LATERAL (${mempoolIoSql(n, 's.key')}) m WHERE s.same` : ''}
    ORDER BY part, id, io, n`, [key, script, q.limit, q.offset, ...(q.cursor !== null ? [q.cursor] : [])]);
  const split = parts(found, key);
  if (!split?.stored) return split;
  return { ...split, page: split.page.map(ioRow), mempool: split.mempool.map(ioRow) };
}

/** An unspent output as read: its tx, vout, value, and block (null for a mempool output, with its first-seen time). */
export interface UnspentRow {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly height: number | null;
  readonly time: number;
}

function unspentRow(r: Row): UnspentRow {
  return { txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), height: r.height == null ? null : num(r.height), time: num(r.time) };
}

/** The first page (FIFO, after the cursor id if any) of a script's unspent outputs, and its mempool outputs when asked. */
export async function unspentOneShot(
  db: Queryable, n: PgNet, key: number, script: Uint8Array,
  q: { cursor: number | null; limit: number; offset: number; mempool: boolean },
): Promise<OneShot<{ page: UnspentRow[]; mempool: UnspentRow[] }>> {
  const { t } = n;
  const cmp = q.cursor !== null ? ' AND o.id > $5' : '';
  const notSpentInMempool = (txid: string): string => `NOT EXISTS (SELECT 1 FROM ${t.mempoolSpends} m WHERE m.prev_txid = ${txid} AND m.prev_vout = o.vout)`;
  const found = await preparedRows(db, `WITH s AS (SELECT key, script = $2 AS same FROM ${t.scripts} WHERE key = $1)
    SELECT 0 AS part, s.same, NULL::bytea AS txid, NULL::bigint AS id, NULL::int AS vout, NULL::bigint AS value, NULL::int AS height,
      NULL::bigint AS time FROM s
    UNION ALL SELECT 1, NULL, u.txid, u.id, u.vout, u.value, b.height, b.time
      FROM (SELECT tx.txid, o.id, o.vout, o.value FROM ${t.outputs} o JOIN s ON s.same AND o.script = s.key JOIN ${t.txs} tx ON tx.id = o.id
        WHERE o.spent_by IS NULL${cmp} AND ${notSpentInMempool('tx.txid')} ORDER BY o.id, o.vout LIMIT $3 OFFSET $4) u
      ${blockOfTx(t.blocks, 'u.id')}
    ${q.mempool ? `UNION ALL SELECT 2, NULL, o.txid, NULL, o.vout, o.value, NULL, tx.seen_at FROM ${t.mempoolOutputs} o
      JOIN s ON s.same AND o.script = s.key JOIN ${t.mempoolTxs} tx ON tx.txid = o.txid WHERE ${notSpentInMempool('o.txid')}` : ''}
    ORDER BY part, id, vout`, [key, script, q.limit, q.offset, ...(q.cursor !== null ? [q.cursor] : [])]);
  const split = parts(found, key);
  if (!split?.stored) return split;
  return { ...split, page: split.page.map(unspentRow), mempool: split.mempool.map(unspentRow) };
}
