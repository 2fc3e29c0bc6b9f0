/** Engine-neutral pieces of the address reads: grouping io rows per tx, paging across confirmed + mempool, min-conf totals. */
import type { AddressHistoryEntry, AddressTotals } from '../../../core/store/chain-reads.js';
import { big, num } from '../sql/sql-plan.js';

export interface IoRow {
  readonly txid: string;
  readonly height: number | null;
  readonly position: number | null;
  readonly time: number;
  readonly io: number;
  readonly n: number;
  readonly value: bigint;
}

/** Groups rows per tx, keeping the order in which txs first appear. */
export function groupIoRows(rows: readonly IoRow[]): AddressHistoryEntry[] {
  const byTxid = new Map<string, { entry: AddressHistoryEntry; funding: { vout: number; value: bigint }[]; spending: { vin: number; value: bigint }[] }>();
  for (const r of rows) {
    let g = byTxid.get(r.txid);
    if (!g) {
      const funding: { vout: number; value: bigint }[] = [];
      const spending: { vin: number; value: bigint }[] = [];
      g = { entry: { txid: r.txid, height: r.height, position: r.position, time: r.time, received: 0n, sent: 0n, funding, spending }, funding, spending };
      byTxid.set(r.txid, g);
    }
    if (r.io === 0) g.funding.push({ vout: r.n, value: r.value });
    else g.spending.push({ vin: r.n, value: r.value });
  }
  return [...byTxid.values()].map(({ entry, funding, spending }) => ({
    ...entry,
    funding: funding.sort((a, b) => a.vout - b.vout),
    spending: spending.sort((a, b) => a.vin - b.vin),
    received: funding.reduce((s, f) => s + f.value, 0n),
    sent: spending.reduce((s, f) => s + f.value, 0n),
  }));
}

export function matchesKind(entry: AddressHistoryEntry, kind: 'all' | 'received' | 'spent' | undefined): boolean {
  if (kind === 'received') return entry.funding.length > 0;
  if (kind === 'spent') return entry.spending.length > 0;
  return true;
}

/** Mempool entries in FIFO order: first seen, then txid for a stable order. */
export function sortMempoolEntries<T extends { time: number; txid: string }>(entries: T[]): T[] {
  return entries.sort((a, b) => a.time - b.time || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
}

export interface PagedSource<T> {
  /** Confirmed items after the cursor in the requested direction. */
  confirmed(limit: number, offset: number): Promise<T[]>;
  confirmedCount(): Promise<number>;
  /** All matching mempool items, ascending. */
  mempool(): Promise<T[]>;
}

/** The same source answering synchronously (SQLite: a whole page read inside one read transaction). */
export interface SyncPagedSource<T> {
  confirmed(limit: number, offset: number): T[];
  confirmedCount(): number;
  mempool(): T[];
}

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
  readonly direction: 'asc' | 'desc';
  readonly hasCursor: boolean;
  readonly includeMempool: boolean;
}

export type PageNeed = { readonly need: 'confirmed'; readonly limit: number; readonly offset: number } | { readonly need: 'count' | 'mempool' };

/**
 * FIFO is confirmed (height, position) then mempool; desc is its exact reverse. A cursor is always confirmed.
 * Written once as the reads it needs (yielded, answered by the driver), so the async and the sync driver page alike.
 */
export function* pagePlan<T>(req: PageRequest): Generator<PageNeed, T[], unknown> {
  const { limit, offset } = req;
  if (limit <= 0) return [];
  if (req.direction === 'asc') {
    const confirmed = (yield { need: 'confirmed', limit, offset }) as T[];
    if (confirmed.length === limit || !req.includeMempool) return confirmed;
    const total = confirmed.length > 0 || offset === 0 ? offset + confirmed.length : ((yield { need: 'count' }) as number);
    const skip = Math.max(0, offset - total);
    return [...confirmed, ...((yield { need: 'mempool' }) as T[]).slice(skip, skip + limit - confirmed.length)];
  }
  if (req.hasCursor || !req.includeMempool) return (yield { need: 'confirmed', limit, offset }) as T[];
  const mempool = ((yield { need: 'mempool' }) as T[]).reverse();
  const taken = mempool.slice(offset, offset + limit);
  const remaining = limit - taken.length;
  if (remaining === 0) return taken;
  return [...taken, ...((yield { need: 'confirmed', limit: remaining, offset: Math.max(0, offset - mempool.length) }) as T[])];
}

function ask<T, R>(src: PagedSource<T> | SyncPagedSource<T>, n: PageNeed): R {
  if (n.need === 'confirmed') return src.confirmed(n.limit, n.offset) as R;
  return (n.need === 'count' ? src.confirmedCount() : src.mempool()) as R;
}

export async function pageConfirmedThenMempool<T>(src: PagedSource<T>, req: PageRequest): Promise<T[]> {
  const plan = pagePlan<T>(req);
  for (let step = plan.next(); ; step = plan.next(await ask<T, Promise<unknown>>(src, step.value))) if (step.done) return step.value;
}

export function pageConfirmedThenMempoolSync<T>(src: SyncPagedSource<T>, req: PageRequest): T[] {
  const plan = pagePlan<T>(req);
  for (let step = plan.next(); ; step = plan.next(ask<T, unknown>(src, step.value))) if (step.done) return step.value;
}

export interface ConfirmedTotals {
  readonly received: bigint;
  readonly sent: bigint;
  readonly txCount: number;
  readonly receivedCount: number;
  readonly sentCount: number;
}

/** No history at all. */
export const NO_TOTALS: ConfirmedTotals = { received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };

/** A script row's confirmed totals (either engine's integers: sql-plan.ts). */
export function storedTotals(row: Record<string, unknown>): ConfirmedTotals {
  return { received: big(row.received), sent: big(row.sent), txCount: num(row.tx_count), receivedCount: num(row.received_count), sentCount: num(row.sent_count) };
}

/** Removes the contribution of history rows too young for minConfirmations (rows with height > cutoff). */
export function withoutRecent(totals: ConfirmedTotals, recent: readonly IoRow[]): ConfirmedTotals {
  let { received, sent, txCount, receivedCount, sentCount } = totals;
  for (const e of groupIoRows(recent)) {
    received -= e.received;
    sent -= e.sent;
    txCount -= 1;
    if (e.funding.length > 0) receivedCount -= 1;
    if (e.spending.length > 0) sentCount -= 1;
  }
  return { received, sent, txCount, receivedCount, sentCount };
}

/**
 * A script's live mempool figures: what its mempool txs pay it and spend from it, and how many txs they are. A balance
 * reads them summed by the database (mempoolSumsSql): one row whatever the number of txs, where reading each tx's rows
 * cost a hot address (1,500 mempool txs) milliseconds per balance.
 */
export interface MempoolSums {
  readonly received: bigint;
  readonly sent: bigint;
  readonly txCount: number;
}

export const NO_MEMPOOL: MempoolSums = { received: 0n, sent: 0n, txCount: 0 };

/**
 * How mempoolSumsSql adds values. 'whole': one SUM per table, one index range read each: exact on PostgreSQL (SUM of
 * bigint is NUMERIC), and on SQLite until a sum passes 2^63, where SQLite fails the statement with "integer overflow"
 * rather than answer wrong (isSumOverflow), and the reader asks again 'split'. 'split': each value's bits above 32
 * and the 32 below summed apart (each half's sum fits whatever the number of rows), exact on both engines whatever the
 * sum, at twice the reads: a Dogecoin address's mempool may pass 2^63 base units, a hot address's 1,500 mempool
 * rows make the second read cost (bench:mempool-balance: 1.5x).
 */
export type SumForm = 'whole' | 'split';

/**
 * The three figures of MempoolSums as select-list items, for the script whose key is the SQL expression `key`: its
 * mempool outputs' values summed (`m_received`, or `m_received_hi`/`_lo` split; SumForm), the same for its mempool
 * spends (`m_sent`), and `m_txs`, the txids paying or spending (a tx doing both counts once, as the history groups
 * it). Both engines: SUM of no rows is NULL.
 */
export function mempoolSumsSql(outputs: string, spends: string, key: string, txCount = true, form: SumForm = 'split'): string {
  const sums = (table: string, name: string): string => form === 'whole'
    ? `(SELECT COALESCE(SUM(value), 0) FROM ${table} WHERE script = ${key}) AS ${name}`
    : `(SELECT COALESCE(SUM(value >> 32), 0) FROM ${table} WHERE script = ${key}) AS ${name}_hi,
    (SELECT COALESCE(SUM(value & 4294967295), 0) FROM ${table} WHERE script = ${key}) AS ${name}_lo`;
  // Without the count (AddressTotalsOptions.mempoolTxCount false): the union of txids is the costly part.
  const count = txCount
    ? `(SELECT COUNT(*) FROM (SELECT txid FROM ${outputs} WHERE script = ${key} UNION SELECT txid FROM ${spends} WHERE script = ${key}) m)`
    : 'NULL';
  return `${sums(outputs, 'm_received')}, ${sums(spends, 'm_sent')}, ${count} AS m_txs`;
}

/** SQLite's answer to a 'whole' sum past 2^63 (SumForm): ask again 'split'. */
export function isSumOverflow(err: unknown): boolean {
  return err instanceof Error && err.message === 'integer overflow';
}

/** A row's mempoolSumsSql columns, either form (either engine's integers: SQLite integers, PostgreSQL NUMERIC and int8 text). */
export function mempoolSumsOf(row: Record<string, unknown>): MempoolSums {
  const sum = (name: string): bigint => row[name] !== undefined ? big(row[name]) : (big(row[`${name}_hi`]) << 32n) + big(row[`${name}_lo`]);
  // NULL: not counted (mempoolSumsSql without the count).
  return { received: sum('m_received'), sent: sum('m_sent'), txCount: row.m_txs == null ? NaN : num(row.m_txs) };
}

/** The same figures from io rows, for reads that have the rows anyway (a wallet's scripts). */
export function mempoolSumsOfRows(rows: readonly IoRow[]): MempoolSums {
  const unconfirmed = groupIoRows(rows);
  return { received: unconfirmed.reduce((s, e) => s + e.received, 0n), sent: unconfirmed.reduce((s, e) => s + e.sent, 0n), txCount: unconfirmed.length };
}

export function assembleTotals(c: ConfirmedTotals, m: MempoolSums): AddressTotals {
  return {
    confirmedReceived: c.received, confirmedSent: c.sent, confirmedBalance: c.received - c.sent,
    txCount: c.txCount, receivedTxCount: c.receivedCount, sentTxCount: c.sentCount,
    unconfirmedReceived: m.received, unconfirmedSent: m.sent, unconfirmedBalance: m.received - m.sent,
    unconfirmedTxCount: m.txCount,
  };
}
