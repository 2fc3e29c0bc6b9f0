/** Script ids and exact totals in PostgreSQL: NUMERIC sums are incremented in SQL for a whole batch at once. */
import { StoreError } from '../../core/errors.js';
import { scriptKey } from '../common/codec.js';
import type { TotalsDelta } from '../common/tx-effects.js';
import { dec, num, rows, type Queryable } from './postgres-sql.js';

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

export async function applyTotals(db: Queryable, totals: readonly TotalsDelta[]): Promise<void> {
  if (totals.length === 0) return;
  await db.query(
    `UPDATE scripts s SET received = s.received + d.r, sent = s.sent + d.se, tx_count = s.tx_count + d.c,
       received_count = s.received_count + d.rc, sent_count = s.sent_count + d.sc
     FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::bigint[], $5::bigint[], $6::bigint[]) AS d(id, r, se, c, rc, sc)
     WHERE s.id = d.id`,
    [
      totals.map((t) => t.scriptId), dec(totals.map((t) => t.received)), dec(totals.map((t) => t.sent)),
      totals.map((t) => t.txCount), totals.map((t) => t.receivedCount), totals.map((t) => t.sentCount),
    ],
  );
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
export async function resolveBatchScripts(db: Queryable, net: number, scripts: ReadonlyMap<string, Uint8Array>): Promise<BatchScripts> {
  const ids = new Map<string, number>();
  const fresh = new Map<number, Uint8Array>();
  if (scripts.size === 0) return { ids, fresh };
  const list = [...scripts.values()].map((s) => Buffer.from(s.buffer, s.byteOffset, s.byteLength));
  for (const r of await rows(db, 'SELECT id, script FROM scripts WHERE net = $1 AND script = ANY($2::bytea[])', [net, list])) {
    ids.set(scriptKey(r.script as Buffer), num(r.id));
  }
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

/** Inserts the batch's new scripts with their totals and adds the totals of the existing ones. */
export async function writeBatchTotals(db: Queryable, net: number, totals: readonly TotalsDelta[], fresh: ReadonlyMap<number, Uint8Array>): Promise<void> {
  const existing: TotalsDelta[] = [];
  const created: TotalsDelta[] = [];
  for (const t of totals) (fresh.has(t.scriptId) ? created : existing).push(t);
  // A new script always has totals (an output of the batch pays it); zero rows kept for safety.
  const withTotals = new Set(created.map((t) => t.scriptId));
  for (const id of fresh.keys()) {
    if (!withTotals.has(id)) created.push({ scriptId: id, received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 });
  }
  if (created.length > 0) {
    await db.query(
      `INSERT INTO scripts (id, net, script, received, sent, tx_count, received_count, sent_count) OVERRIDING SYSTEM VALUE
       SELECT id, $1, script, r, se, c, rc, sc
       FROM unnest($2::bigint[], $3::bytea[], $4::numeric[], $5::numeric[], $6::bigint[], $7::bigint[], $8::bigint[]) AS d(id, script, r, se, c, rc, sc)`,
      [
        net, created.map((t) => t.scriptId), created.map((t) => { const s = fresh.get(t.scriptId)!; return Buffer.from(s.buffer, s.byteOffset, s.byteLength); }),
        dec(created.map((t) => t.received)), dec(created.map((t) => t.sent)),
        created.map((t) => t.txCount), created.map((t) => t.receivedCount), created.map((t) => t.sentCount),
      ],
    );
  }
  await applyTotals(db, existing);
}
