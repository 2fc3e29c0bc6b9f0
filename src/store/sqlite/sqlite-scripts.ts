/** Script ids and exact totals. Totals are TEXT decimals: SQLite integers overflow into REAL past 2^63. */
import { StoreError } from '../../core/errors.js';
import { scriptKey } from '../common/codec.js';
import { withDelta, type CachedScript, type ScriptCache } from '../common/script-cache.js';
import type { TotalsDelta } from '../common/tx-effects.js';
import { BulkInsert } from './sqlite-bulk.js';
import { num, type Row, type Statements } from './sqlite-statements.js';

export function resolveScriptIds(st: Statements, net: number, scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
  const select = st.get('SELECT id FROM scripts WHERE net = ? AND script = ?');
  const insert = st.get('INSERT INTO scripts (net, script) VALUES (?, ?) RETURNING id');
  const ids = new Map<string, number>();
  for (const [key, script] of scripts) {
    const row = (select.get(net, script) ?? insert.get(net, script)) as Row;
    ids.set(key, num(row.id));
  }
  return ids;
}

export function scriptsById(st: Statements, ids: Iterable<number>): Map<number, Uint8Array> {
  const select = st.get('SELECT script FROM scripts WHERE id = ?');
  const out = new Map<number, Uint8Array>();
  for (const id of ids) {
    if (out.has(id)) continue;
    const row = select.get(id) as Row | undefined;
    if (!row) throw new StoreError(`script id ${id} not found`);
    out.set(id, row.script as Buffer);
  }
  return out;
}

/** Writes a script row's new totals; an id without a row fails (its totals would be lost silently). */
function updateTotals(st: Statements, entry: CachedScript): void {
  const { changes } = st.get('UPDATE scripts SET received = ?, sent = ?, tx_count = ?, received_count = ?, sent_count = ? WHERE id = ?')
    .run(entry.received.toString(), entry.sent.toString(), entry.txCount, entry.receivedCount, entry.sentCount, entry.id);
  if (changes !== 1) throw new StoreError(`script id ${entry.id} not found`);
}

/** A script row by id, with its bytes. */
function readScript(st: Statements, id: number): { script: Buffer; row: CachedScript } {
  const row = st.get('SELECT script, received, sent, tx_count, received_count, sent_count FROM scripts WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw new StoreError(`script id ${id} not found`);
  const script = row.script as Buffer;
  return { script, row: cachedRow(id, scriptKey(script), row) };
}

/** Adds per-script deltas (negative when a block is disconnected) to the stored totals. */
export function applyTotals(st: Statements, totals: readonly TotalsDelta[]): void {
  for (const t of totals) updateTotals(st, withDelta(readScript(st, t.scriptId).row, t));
}

/** A script row as read before a batch: its id, bytes and exact totals (null totals: created by this batch). */
interface ScriptState {
  readonly id: number;
  readonly script: Uint8Array;
  readonly row: CachedScript | null;
}

/** A row as read (the TEXT sums parsed as bigints: exact past 2^63). */
function cachedRow(id: number, key: string, row: Row): CachedScript {
  return {
    id, key, received: BigInt(row.received as string), sent: BigInt(row.sent as string),
    txCount: num(row.tx_count), receivedCount: num(row.received_count), sentCount: num(row.sent_count),
  };
}

/**
 * The scripts a block batch touches, each read once: by bytes for output scripts (new ones get the next ids
 * here, in first-appearance order, and are inserted with their totals at the end), by id for the scripts of
 * spent prevouts. The ScriptCache answers first; only its misses are read (none when it is complete).
 * Totals are then written once per script: one UPDATE each, multi-row INSERTs for new ones.
 */
export class ScriptBook {
  private readonly byId = new Map<number, ScriptState>();
  private nextId: number;

  constructor(private readonly st: Statements, private readonly net: number, private readonly cache: ScriptCache) {
    const row = st.get('SELECT max(id) AS id FROM scripts').get() as Row;
    this.nextId = row.id === null ? 1 : num(row.id) + 1;
    if (cache.complete === null) cache.setComplete(!st.get('SELECT 1 FROM scripts WHERE net = ? LIMIT 1').get(net));
  }

  /** Ids of output scripts by key, creating ids for unknown scripts (in first-appearance order). */
  resolve(scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
    const found = new Map<string, CachedScript>();
    const misses: string[] = [];
    for (const key of scripts.keys()) {
      const hit = this.cache.byScript(key);
      if (hit) found.set(key, hit);
      else misses.push(key);
    }
    if (!this.cache.complete) {
      const select = this.st.get('SELECT id, received, sent, tx_count, received_count, sent_count FROM scripts WHERE net = ? AND script = ?');
      // In key order: consecutive lookups share index pages.
      for (const key of misses.sort()) {
        const row = select.get(this.net, scripts.get(key)) as Row | undefined;
        if (row) found.set(key, cachedRow(num(row.id), key, row));
      }
    }
    const ids = new Map<string, number>();
    for (const [key, script] of scripts) {
      const row = found.get(key);
      const id = row ? row.id : this.nextId++;
      this.byId.set(id, { id, script, row: row ?? null });
      ids.set(key, id);
    }
    return ids;
  }

  /** Reads the rows of existing script ids not read yet (the scripts of spent prevouts). */
  load(ids: Iterable<number>): void {
    const missing: number[] = [];
    for (const id of ids) {
      if (this.byId.has(id)) continue;
      const hit = this.cache.byScriptId(id);
      if (hit) this.byId.set(id, { id, script: Buffer.from(hit.key, 'latin1'), row: hit });
      else missing.push(id);
    }
    for (const id of [...new Set(missing)].sort((a, b) => a - b)) this.byId.set(id, { id, ...readScript(this.st, id) });
  }

  /** Script bytes of an id read by resolve or load. */
  script(id: number): Uint8Array {
    const state = this.byId.get(id);
    if (!state) throw new StoreError(`script id ${id} not loaded`);
    return state.script;
  }

  /** Writes every touched script's new totals (and the new scripts themselves); stages them in the cache. */
  write(totals: readonly TotalsDelta[]): void {
    const insert = new BulkInsert(this.st, 'INSERT INTO scripts (id, net, script, received, sent, tx_count, received_count, sent_count)', 8);
    const v = insert.values;
    const written = new Set<number>();
    for (const t of [...totals].sort((a, b) => a.scriptId - b.scriptId)) {
      const state = this.byId.get(t.scriptId);
      if (!state) throw new StoreError(`script id ${t.scriptId} not found`);
      const next = withDelta(state.row ?? emptyScript(state.id, state.script), t);
      if (state.row) {
        // A cached id the database lacks fails the batch here.
        updateTotals(this.st, next);
      } else {
        const o = insert.next();
        v[o] = next.id; v[o + 1] = this.net; v[o + 2] = state.script; v[o + 3] = next.received.toString();
        v[o + 4] = next.sent.toString(); v[o + 5] = next.txCount; v[o + 6] = next.receivedCount; v[o + 7] = next.sentCount;
      }
      this.cache.stage(next);
      written.add(t.scriptId);
    }
    // A new script always has totals (an output of the batch pays it); kept for safety.
    for (const state of this.byId.values()) {
      if (state.row || written.has(state.id)) continue;
      const o = insert.next();
      v[o] = state.id; v[o + 1] = this.net; v[o + 2] = state.script; v[o + 3] = '0'; v[o + 4] = '0'; v[o + 5] = 0; v[o + 6] = 0; v[o + 7] = 0;
      this.cache.stage(emptyScript(state.id, state.script));
    }
    insert.finish();
  }
}

function emptyScript(id: number, script: Uint8Array): CachedScript {
  return { id, key: scriptKey(script), received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };
}
