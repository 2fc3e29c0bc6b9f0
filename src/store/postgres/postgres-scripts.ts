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
