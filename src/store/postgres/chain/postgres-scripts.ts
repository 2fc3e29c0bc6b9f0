/**
 * Script rows of one network for PostgreSQL: keys (script-keys.ts: a hash, then linear probing on a collision) and
 * exact NUMERIC totals, incremented in SQL for a whole batch at once. Looking keys up is set-based: one query reads
 * the rows at every script's base key; only a script whose base key holds other bytes (a collision: rare) probes on
 * row by row.
 */
import type pg from 'pg';
import { StoreError } from '../../../core/domain/errors.js';
import { sameBytes, scriptKey } from '../../common/schema/codec.js';
import { emptyScript, withDelta, type CachedScript, type ScriptCache } from '../../common/chain-writes/script-cache.js';
import { nextKey } from '../../common/chain-writes/script-keys.js';
import type { TotalsDelta } from '../../common/chain-writes/tx-effects.js';
import { BinaryRows, copyRows } from '../connection/postgres-copy.js';
import type { PgNet } from './postgres-net.js';
import { big, num, one, rows, type Queryable, type Row } from '../connection/postgres-sql.js';
import { STAGE } from './postgres-staging.js';

/** A script row as read (NUMERIC sums arrive as decimal strings: exact past 2^63). */
export function cachedRow(row: Row): CachedScript {
  return {
    id: num(row.key), key: scriptKey(row.script as Buffer), received: big(row.received), sent: big(row.sent),
    txCount: num(row.tx_count), receivedCount: num(row.received_count), sentCount: num(row.sent_count),
  };
}

/** Probes a script's sequence row by row from `from`: its stored row, or null with the first free key not `taken`. */
async function probe(db: Queryable, n: PgNet, script: Uint8Array, from: number, taken?: ReadonlySet<number>): Promise<{ row: Row | null; key: number }> {
  for (let key = from; ; key = nextKey(key)) {
    const row = await one(db, `SELECT * FROM ${n.t.scripts} WHERE key = $1`, [key]);
    if (!row) {
      if (taken?.has(key)) continue;
      return { row: null, key };
    }
    if (sameBytes(row.script as Buffer, script)) return { row, key };
  }
}

/** The stored row of a script (probing from its base key), or null with the first free key of its probe sequence. */
export async function findScript(db: Queryable, n: PgNet, script: Uint8Array): Promise<{ row: Row | null; key: number }> {
  return probe(db, n, script, (await n.keys(db)).base(script));
}

/**
 * Every script's stored row, or null with the key it gets: one query for all base keys. A key given to a new script
 * is added to `taken` (the next new script of the batch must not get it too). A script with no row at its base key
 * is new: rows are never deleted, so a stored script's probe sequence never passes a free key.
 */
export async function lookupScripts(
  db: Queryable, n: PgNet, scripts: readonly Uint8Array[], taken: Set<number>,
): Promise<{ row: Row | null; key: number }[]> {
  if (scripts.length === 0) return [];
  const keys = await n.keys(db);
  const bases = scripts.map((s) => keys.base(s));
  const stored = new Map<number, Row>();
  for (const r of await rows(db, `SELECT * FROM ${n.t.scripts} WHERE key = ANY($1::bigint[])`, [[...new Set(bases)]])) stored.set(num(r.key), r);
  const found: { row: Row | null; key: number }[] = [];
  for (const [i, script] of scripts.entries()) {
    const base = bases[i]!;
    const row = stored.get(base);
    let hit: { row: Row | null; key: number };
    if (row && sameBytes(row.script as Buffer, script)) hit = { row, key: base };
    else if (!row && !taken.has(base)) hit = { row: null, key: base };
    else hit = await probe(db, n, script, base, taken);
    if (!hit.row) taken.add(hit.key);
    found.push(hit);
  }
  return found;
}

export async function scriptsByKey(db: Queryable, n: PgNet, keys: Iterable<number>): Promise<Map<number, Uint8Array>> {
  const wanted = [...new Set(keys)];
  const out = new Map<number, Uint8Array>();
  if (wanted.length === 0) return out;
  for (const r of await rows(db, `SELECT key, script FROM ${n.t.scripts} WHERE key = ANY($1::bigint[])`, [wanted])) {
    out.set(num(r.key), r.script as Buffer);
  }
  for (const key of wanted) if (!out.has(key)) throw new StoreError(`script key ${key} not found`);
  return out;
}

/**
 * Adds per-script deltas (negative when a block is disconnected): copied into staging, applied by one UPDATE. A key
 * without a row fails (its totals would be lost silently).
 */
export async function applyTotals(db: pg.ClientBase, n: PgNet, totals: readonly TotalsDelta[]): Promise<void> {
  if (totals.length === 0) return;
  const deltas = new BinaryRows(6, 1 << 16);
  // In key order: the UPDATE probes the scripts' key from one end to the other.
  for (const t of [...totals].sort((a, b) => a.scriptId - b.scriptId)) {
    deltas.row().int8(t.scriptId).numeric(t.received).numeric(t.sent).int8(t.txCount).int8(t.receivedCount).int8(t.sentCount);
  }
  await copyRows(db, STAGE.totals, deltas);
  const result = await db.query(`UPDATE ${n.t.scripts} s SET received = s.received + d.received, sent = s.sent + d.sent,
      tx_count = s.tx_count + d.tx_count, received_count = s.received_count + d.received_count, sent_count = s.sent_count + d.sent_count
    FROM ${STAGE.totals} d WHERE s.key = d.key`);
  if (result.rowCount !== totals.length) throw new StoreError(`script totals: ${totals.length - (result.rowCount ?? 0)} script keys not found`);
}

/** A script as the batch found it: its key, bytes and totals (null: created by this batch, not stored yet). */
interface ScriptState {
  readonly key: number;
  readonly script: Uint8Array;
  row: CachedScript | null;
}

/**
 * The scripts a write touches, each read at most once: output scripts by their bytes (new ones get the first free
 * key of their probe sequence), prevout scripts by key. The writer's ScriptCache answers first; its misses are read
 * in one query (none at all while the cache holds every script of the network). What is written is staged in the
 * cache, which the network store commits once the transaction has.
 */
export class PgScriptBook {
  private readonly byKey = new Map<number, ScriptState>();
  /** Keys given to new scripts of this write (free in the table, but no longer free for the next new script). */
  private readonly fresh = new Set<number>();

  constructor(private readonly db: pg.ClientBase, private readonly n: PgNet, private readonly cache: ScriptCache) {}

  /** Keys of output scripts by scriptKey string, creating keys for unknown scripts (in first-appearance order). */
  async resolve(scripts: ReadonlyMap<string, Uint8Array>): Promise<Map<string, number>> {
    const { cache } = this;
    if (cache.complete === null) cache.setComplete(!(await one(this.db, `SELECT 1 FROM ${this.n.t.scripts} LIMIT 1`)));
    const keys = new Map<string, number>();
    const misses: [string, Uint8Array][] = [];
    for (const [k, script] of scripts) {
      const hit = cache.byScript(k);
      if (hit) {
        this.byKey.set(hit.id, { key: hit.id, script, row: hit });
        keys.set(k, hit.id);
      } else if (cache.complete) {
        // Every script of the network is cached: the first key of the probe sequence not cached or taken is free.
        let key = (await this.n.keys(this.db)).base(script);
        while (cache.byScriptId(key) || this.fresh.has(key)) key = nextKey(key);
        this.fresh.add(key);
        this.byKey.set(key, { key, script, row: null });
        keys.set(k, key);
      } else {
        misses.push([k, script]);
      }
    }
    const found = await lookupScripts(this.db, this.n, misses.map(([, script]) => script), this.fresh);
    misses.forEach(([k, script], i) => {
      const { row, key } = found[i]!;
      this.byKey.set(key, { key, script, row: row ? cachedRow(row) : null });
      keys.set(k, key);
    });
    return keys;
  }

  /** Reads the rows of existing script keys not read yet (the scripts of spent prevouts), in one query. */
  async load(keys: Iterable<number>): Promise<void> {
    const missing = new Set<number>();
    for (const key of keys) {
      if (this.byKey.has(key) || missing.has(key)) continue;
      const hit = this.cache.byScriptId(key);
      if (hit) this.byKey.set(key, { key, script: Buffer.from(hit.key, 'latin1'), row: hit });
      else missing.add(key);
    }
    if (missing.size === 0) return;
    for (const r of await rows(this.db, `SELECT * FROM ${this.n.t.scripts} WHERE key = ANY($1::bigint[])`, [[...missing]])) {
      const key = num(r.key);
      this.byKey.set(key, { key, script: r.script as Buffer, row: cachedRow(r) });
    }
    for (const key of missing) if (!this.byKey.has(key)) throw new StoreError(`script key ${key} not found`);
  }

  script(key: number): Uint8Array {
    const state = this.byKey.get(key);
    if (!state) throw new StoreError(`script key ${key} not loaded`);
    return state.script;
  }

  /**
   * Inserts the new scripts with their final totals by binary COPY straight into the table (their keys are free:
   * nothing can conflict) and adds the totals of the existing ones through staging; stages every row in the cache.
   * Scripts resolved without totals (the mempool's new output scripts) are inserted with zero totals.
   */
  async write(totals: readonly TotalsDelta[]): Promise<void> {
    const created = new BinaryRows(7, 1 << 20);
    const existing: TotalsDelta[] = [];
    const add = (state: ScriptState, next: CachedScript): void => {
      created.row().int8(next.id).bytea(state.script).numeric(next.received).numeric(next.sent).int8(next.txCount)
        .int8(next.receivedCount).int8(next.sentCount);
    };
    const touched = new Set<number>();
    for (const t of totals) {
      const state = this.byKey.get(t.scriptId);
      if (!state) throw new StoreError(`script key ${t.scriptId} not found`);
      const next = withDelta(state.row ?? emptyScript(state.key, state.script), t);
      if (state.row) existing.push(t);
      else add(state, next);
      touched.add(t.scriptId);
      this.cache.stage(next);
    }
    for (const key of this.fresh) {
      const state = this.byKey.get(key);
      if (!state || touched.has(key)) continue;
      const next = emptyScript(key, state.script);
      add(state, next);
      this.cache.stage(next);
    }
    await copyRows(this.db, `${this.n.t.scripts} (key, script, received, sent, tx_count, received_count, sent_count)`, created);
    await applyTotals(this.db, this.n, existing);
  }
}
