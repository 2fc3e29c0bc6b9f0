/**
 * The script-set reads (core/script-set-reads.ts) written once for both engines, as the statements they need: each
 * plan yields `{sql, params}` and is answered with rows, by a synchronous loop inside one SQLite read transaction or
 * an asynchronous one on PostgreSQL (as history-assembly's pagePlan). Row values are read with Number() and BigInt(),
 * which take either engine's integers (SQLite bigints, PostgreSQL int8/NUMERIC strings).
 */
import type { AddressHistoryEntry, AddressTotals, UnspentOutput } from '../../../core/store/chain-reads.js';
import type { ScriptSetFlows, ScriptSetPage, ScriptSetSummary, ScriptSetTxCount } from '../../../core/store/script-set-reads.js';
import { bytesToHex, sameBytes } from '../schema/codec.js';
import { ConfirmedIdsMemo } from './confirmed-ids-memo.js';
import { assembleTotals, groupIoRows, mempoolSumsOfRows, NO_MEMPOOL, pagePlan, sortMempoolEntries, type IoRow, type PageNeed } from './history-assembly.js';
import { nextKey, type ScriptKeys } from '../chain-writes/script-keys.js';
import type { ScriptSetSql, SetDialect } from './script-set-sql.js';

type Row = Record<string, unknown>;
export interface Need {
  readonly sql: string;
  readonly params: readonly unknown[];
}
export type Plan<T> = Generator<Need, T, Row[]>;

export interface SetContext {
  readonly sql: ScriptSetSql;
  readonly dialect: SetDialect;
  readonly keys: ScriptKeys;
  /** The network's code in the shared tables (tips). */
  readonly net: number;
  readonly memo: ConfirmedIdsMemo;
}

/** The scripts the index stores, by key (scripts it never saw are left out: they have no history). */
interface Resolved {
  readonly rows: (Row | null)[];
  readonly keys: number[];
  readonly scriptOf: Map<number, Uint8Array>;
}

const ZERO = assembleTotals({ received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 }, NO_MEMPOOL);

/**
 * Each script's stored row: one statement for all base keys, then row by row only past a collision (rare). Without
 * `totals` the rows carry only key and bytes.
 */
function* resolve(c: SetContext, scripts: readonly Uint8Array[], totals = false): Plan<Resolved> {
  const bases = scripts.map((s) => c.keys.base(s));
  const byKey = new Map<number, Row>();
  for (const r of yield { sql: totals ? c.sql.scriptRows : c.sql.scriptKeyRows, params: [c.dialect.list([...new Set(bases)])] }) byKey.set(Number(r.key), r);
  const rows: (Row | null)[] = [];
  const keys: number[] = [];
  const scriptOf = new Map<number, Uint8Array>();
  for (const [i, script] of scripts.entries()) {
    let key = bases[i]!;
    let row = byKey.get(key);
    while (row && !sameBytes(row.script as Uint8Array, script)) {
      key = nextKey(key);
      row = byKey.get(key) ?? (yield { sql: c.sql.scriptRow, params: [key] })[0];
      if (row) byKey.set(key, row);
    }
    rows.push(row ?? null);
    if (row && !scriptOf.has(key)) {
      keys.push(key);
      scriptOf.set(key, script);
    }
  }
  return { rows, keys, scriptOf };
}

function mempoolIoRow(r: Row): IoRow & { key: number } {
  return { key: Number(r.key), txid: bytesToHex(r.txid as Uint8Array), height: null, position: null, time: Number(r.time), io: Number(r.io), n: Number(r.n), value: BigInt(r.value as string) };
}

function* mempoolIo(c: SetContext, keys: readonly number[]): Plan<(IoRow & { key: number })[]> {
  const list = c.dialect.list(keys);
  return (yield { sql: c.sql.mempoolIo, params: [list, list] }).map(mempoolIoRow);
}

/** Each script's totals from its row and its live mempool rows (already read). */
function totalsOf(rows: readonly (Row | null)[], mempool: readonly (IoRow & { key: number })[]): AddressTotals[] {
  const byKey = new Map<number, IoRow[]>();
  for (const r of mempool) {
    const list = byKey.get(r.key);
    if (list) list.push(r);
    else byKey.set(r.key, [r]);
  }
  return rows.map((row) => {
    if (!row) return ZERO;
    const confirmed = {
      received: BigInt(row.received as string), sent: BigInt(row.sent as string), txCount: Number(row.tx_count),
      receivedCount: Number(row.received_count), sentCount: Number(row.sent_count),
    };
    return assembleTotals(confirmed, mempoolSumsOfRows(byKey.get(Number(row.key)) ?? []));
  });
}

export function* totalsPlan(c: SetContext, scripts: readonly Uint8Array[]): Plan<AddressTotals[]> {
  if (scripts.length === 0) return [];
  const { rows, keys } = yield* resolve(c, scripts, true);
  if (keys.length === 0) return scripts.map(() => ZERO);
  return totalsOf(rows, yield* mempoolIo(c, keys));
}

export function* summaryPlan(c: SetContext, scripts: readonly Uint8Array[]): Plan<ScriptSetSummary> {
  const { rows, keys } = yield* resolve(c, scripts, true);
  if (keys.length === 0) return { totals: scripts.map(() => ZERO), txCount: { confirmed: 0, mempool: 0 } };
  const mempool = yield* mempoolIo(c, keys);
  const confirmed = (yield* confirmedIds(c, keys)).length;
  return { totals: totalsOf(rows, mempool), txCount: { confirmed, mempool: new Set(mempool.map((r) => r.txid)).size } };
}

/** The chain's tip as the memo keeps sets under it. */
function* tipText(c: SetContext): Plan<string> {
  const [tip] = yield { sql: c.sql.tip, params: [c.net] };
  return tip ? `${Number(tip.height)}:${bytesToHex(tip.hash as Uint8Array)}` : '';
}

/** The set's confirmed tx ids, newest first: kept per set while the tip stays (confirmed-ids-memo.ts). */
function* confirmedIds(c: SetContext, keys: readonly number[]): Plan<Float64Array> {
  const at = yield* tipText(c);
  const setId = ConfirmedIdsMemo.setId(keys);
  const known = c.memo.get(setId, at);
  if (known) return known;
  const ids = Float64Array.from((yield { sql: c.sql.confirmedIds, params: [c.dialect.list(keys)] }).map((r) => Number(r.id)));
  c.memo.set(setId, at, ids);
  return ids;
}

export function* flowsPlan(c: SetContext, scripts: readonly Uint8Array[]): Plan<ScriptSetFlows> {
  const { keys } = yield* resolve(c, scripts);
  if (keys.length === 0) return { received: 0n, sent: 0n };
  const at = yield* tipText(c);
  const setId = ConfirmedIdsMemo.setId(keys);
  const known = c.memo.getFlows(setId, at);
  if (known) return known;
  const keyList = c.dialect.list(keys);
  const [row] = yield { sql: c.sql.flows, params: [keyList, keyList] };
  const sum = (name: string): bigint => BigInt(String(row?.[`${name}_high`] ?? 0)) * 1_000_000_000n + BigInt(String(row?.[`${name}_low`] ?? 0));
  const flows = { received: sum('received'), sent: sum('sent') };
  c.memo.setFlows(setId, at, flows);
  return flows;
}

export function* txCountPlan(c: SetContext, scripts: readonly Uint8Array[]): Plan<ScriptSetTxCount> {
  const { keys } = yield* resolve(c, scripts);
  if (keys.length === 0) return { confirmed: 0, mempool: 0 };
  const confirmed = (yield* confirmedIds(c, keys)).length;
  const mempool = new Set((yield* mempoolIo(c, keys)).map((r) => r.txid)).size;
  return { confirmed, mempool };
}

/** Answers a page plan's needs (history-assembly's pagePlan) with the plans given for each. */
function* page<T>(
  req: ScriptSetPage & { direction: 'asc' | 'desc' },
  answer: { confirmed(limit: number, offset: number): Plan<T[]>; count(): Plan<number>; mempool(): Plan<T[]> },
): Plan<T[]> {
  const plan = pagePlan<T>({ ...req, hasCursor: false, includeMempool: true });
  for (let step = plan.next(); ; ) {
    if (step.done) return step.value;
    const need: PageNeed = step.value;
    const value = need.need === 'confirmed' ? yield* answer.confirmed(need.limit, need.offset) : need.need === 'count' ? yield* answer.count() : yield* answer.mempool();
    step = plan.next(value);
  }
}

/** The io rows of confirmed txs `ids` (newest first) for the set's keys, grouped per tx in that order. */
function* confirmedEntries(c: SetContext, keys: readonly number[], ids: readonly number[]): Plan<AddressHistoryEntry[]> {
  if (ids.length === 0) return [];
  const idList = c.dialect.list(ids);
  const keyList = c.dialect.list(keys);
  const base = new Map<number, Omit<IoRow, 'io' | 'n' | 'value'>>();
  for (const r of yield { sql: c.sql.txsOfIds, params: [idList] }) {
    const id = Number(r.id);
    base.set(id, { txid: bytesToHex(r.txid as Uint8Array), height: Number(r.height), position: id - Number(r.first_tx), time: Number(r.time) });
  }
  const byId = new Map<number, IoRow[]>(ids.map((id) => [id, []]));
  for (const r of yield { sql: c.sql.ioOfIds, params: [idList, keyList, idList, keyList] }) {
    const id = Number(r.id);
    byId.get(id)?.push({ ...base.get(id)!, io: Number(r.io), n: Number(r.n), value: BigInt(r.value as string) });
  }
  return groupIoRows(ids.flatMap((id) => byId.get(id)!));
}

export function* historyPlan(c: SetContext, scripts: readonly Uint8Array[], req: ScriptSetPage): Plan<AddressHistoryEntry[]> {
  const { keys } = yield* resolve(c, scripts);
  if (keys.length === 0) return [];
  let all: Float64Array | null = null;
  return yield* page<AddressHistoryEntry>({ ...req, direction: 'desc' }, {
    *confirmed(limit, offset) {
      all ??= yield* confirmedIds(c, keys);
      return yield* confirmedEntries(c, keys, Array.from(all.subarray(offset, offset + limit)));
    },
    *count() {
      all ??= yield* confirmedIds(c, keys);
      return all.length;
    },
    *mempool() {
      return sortMempoolEntries(groupIoRows(yield* mempoolIo(c, keys)));
    },
  });
}

export function* unspentPlan(c: SetContext, scripts: readonly Uint8Array[], req: ScriptSetPage): Plan<UnspentOutput[]> {
  const { keys, scriptOf } = yield* resolve(c, scripts);
  if (keys.length === 0) return [];
  const keyList = c.dialect.list(keys);
  const output = (r: Row, confirmed: boolean): UnspentOutput => ({
    txid: bytesToHex(r.txid as Uint8Array), vout: Number(r.vout), value: BigInt(r.value as string), script: scriptOf.get(Number(r.key))!,
    height: confirmed ? Number(r.height) : null, time: Number(r.time),
  });
  return yield* page<UnspentOutput>({ ...req, direction: 'asc' }, {
    *confirmed(limit, offset) {
      return (yield { sql: c.sql.unspentPage, params: [keyList, limit, offset] }).map((r) => output(r, true));
    },
    *count() {
      return Number((yield { sql: c.sql.unspentCount, params: [keyList] })[0]!.c);
    },
    *mempool() {
      return sortMempoolEntries((yield { sql: c.sql.mempoolUnspent, params: [keyList] }).map((r) => output(r, false)));
    },
  });
}

/** Runs a plan with a synchronous statement runner (SQLite, inside one read transaction). */
export function runPlanSync<T>(plan: Plan<T>, all: (sql: string, params: readonly unknown[]) => Row[]): T {
  for (let step = plan.next(); ; step = plan.next(all(step.value.sql, step.value.params))) if (step.done) return step.value;
}

/** Runs a plan with an asynchronous statement runner (PostgreSQL). */
export async function runPlan<T>(plan: Plan<T>, all: (sql: string, params: readonly unknown[]) => Promise<Row[]>): Promise<T> {
  for (let step = plan.next(); ; step = plan.next(await all(step.value.sql, step.value.params))) if (step.done) return step.value;
}
