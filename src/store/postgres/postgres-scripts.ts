/** Script ids and exact totals in PostgreSQL: NUMERIC sums are incremented in SQL for a whole batch at once. */
import type pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { scriptKey } from '../common/codec.js';
import type { TotalsDelta } from '../common/tx-effects.js';
import { BinaryRows, copyRows } from './postgres-copy.js';
import { num, rows, type Queryable } from './postgres-sql.js';
import { STAGE } from './postgres-staging.js';

export async function resolveScriptIds(db: Queryable, net: number, scripts: ReadonlyMap<string, Uint8Array>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (scripts.size === 0) return ids;
  const list = [...scripts.values()].map((s) => Buffer.from(s));
  await db.query('INSERT INTO scripts (net, script) SELECT $1, s FROM unnest($2::bytea[]) AS s ON CONFLICT (net, script) DO NOTHING', [net, list]);
  for (const r of await rows(db, 'SELECT id, script FROM scripts WHERE net = $1 AND script = ANY($2::bytea[])', [net, list])) {
    ids.set(scriptKey(r.script as Buffer), num(r.id));
  }
  return ids;
}

export async function scriptsById(db: Queryable, ids: readonly number[]): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  if (ids.length === 0) return out;
  for (const r of await rows(db, 'SELECT id, script FROM scripts WHERE id = ANY($1::bigint[])', [[...new Set(ids)]])) {
    out.set(num(r.id), r.script as Buffer);
  }
  for (const id of ids) if (!out.has(id)) throw new StoreError(`script id ${id} not found`);
  return out;
}

/** Adds per-script deltas (negative when a block is disconnected): copied into staging, applied by one UPDATE. */
export async function applyTotals(db: pg.ClientBase, totals: readonly TotalsDelta[]): Promise<void> {
  if (totals.length === 0) return;
  const deltas = new BinaryRows(6, 1 << 16);
  for (const t of totals) {
    deltas.row().int8(t.scriptId).numeric(t.received).numeric(t.sent).int8(t.txCount).int8(t.receivedCount).int8(t.sentCount);
  }
  await copyRows(db, STAGE.totals, deltas);
  await db.query(`UPDATE scripts s SET received = s.received + d.received, sent = s.sent + d.sent, tx_count = s.tx_count + d.tx_count,
      received_count = s.received_count + d.received_count, sent_count = s.sent_count + d.sent_count
    FROM ${STAGE.totals} d WHERE s.id = d.id`);
}

/** Output scripts of a block batch: existing ids, and ids reserved for new scripts (inserted once, with their totals). */
export interface BatchScripts {
  readonly ids: Map<string, number>;
  /** Reserved id -> script bytes, for scripts not stored yet. */
  readonly fresh: Map<number, Uint8Array>;
}

/**
 * One SELECT for the existing scripts and one nextval() per new one: new scripts are inserted with their final
 * totals by writeBatchTotals instead of being inserted now and updated later (an UPDATE right after an INSERT
 * writes a second version of the row and of its index entries).
 */
export async function resolveBatchScripts(db: pg.ClientBase, net: number, scripts: ReadonlyMap<string, Uint8Array>): Promise<BatchScripts> {
  const ids = new Map<string, number>();
  const fresh = new Map<number, Uint8Array>();
  if (scripts.size === 0) return { ids, fresh };
  const keys = new BinaryRows(1, 1 << 20);
  for (const script of scripts.values()) keys.row().bytea(script);
  await copyRows(db, STAGE.scripts, keys);
  const found = await rows(db, `SELECT s.id, s.script FROM ${STAGE.scripts} k JOIN scripts s ON s.net = $1 AND s.script = k.script`, [net]);
  for (const r of found) ids.set(scriptKey(r.script as Buffer), num(r.id));
  const missing = [...scripts.keys()].filter((key) => !ids.has(key));
  if (missing.length > 0) {
    const reserved = await rows(db, "SELECT nextval(pg_get_serial_sequence('scripts', 'id')) AS id FROM generate_series(1, $1)", [missing.length]);
    missing.forEach((key, i) => {
      const id = num(reserved[i]!.id);
      ids.set(key, id);
      fresh.set(id, scripts.get(key)!);
    });
  }
  return { ids, fresh };
}

/**
 * Inserts the batch's new scripts with their totals and adds the totals of the existing ones, both by binary COPY
 * (the new rows straight into scripts: their ids were reserved, nothing can conflict; the deltas through staging).
 */
export async function writeBatchTotals(db: pg.ClientBase, net: number, totals: readonly TotalsDelta[], fresh: ReadonlyMap<number, Uint8Array>): Promise<void> {
  const created = new BinaryRows(8, 1 << 20);
  const existing: TotalsDelta[] = [];
  const withTotals = new Set<number>();
  for (const t of totals) {
    const script = fresh.get(t.scriptId);
    if (script) {
      withTotals.add(t.scriptId);
      created.row().int8(t.scriptId).int2(net).bytea(script).numeric(t.received).numeric(t.sent).int8(t.txCount)
        .int8(t.receivedCount).int8(t.sentCount);
    } else {
      existing.push(t);
    }
  }
  // A new script always has totals (an output of the batch pays it); zero rows kept for safety.
  for (const [id, script] of fresh) {
    if (!withTotals.has(id)) created.row().int8(id).int2(net).bytea(script).numeric(0n).numeric(0n).int8(0).int8(0).int8(0);
  }
  await copyRows(db, 'scripts (id, net, script, received, sent, tx_count, received_count, sent_count)', created);
  await applyTotals(db, existing);
}
