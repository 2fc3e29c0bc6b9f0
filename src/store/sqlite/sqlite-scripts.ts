/** Script ids and exact totals. Totals are TEXT decimals: SQLite integers overflow into REAL past 2^63. */
import { StoreError } from '../../core/errors.js';
import type { TotalsDelta } from '../common/tx-effects.js';
import { BulkInsert } from './sqlite-bulk.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

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

/** Stores a script row's totals plus a delta: the TEXT sums are added as bigints (exact past 2^63). */
function addToTotals(st: Statements, row: Row, t: TotalsDelta): void {
  st.get('UPDATE scripts SET received = ?, sent = ?, tx_count = ?, received_count = ?, sent_count = ? WHERE id = ?').run(
    (BigInt(row.received as string) + t.received).toString(),
    (BigInt(row.sent as string) + t.sent).toString(),
    big(row.tx_count) + BigInt(t.txCount),
    big(row.received_count) + BigInt(t.receivedCount),
    big(row.sent_count) + BigInt(t.sentCount),
    t.scriptId,
  );
}

export function applyTotals(st: Statements, totals: readonly TotalsDelta[]): void {
  const select = st.get('SELECT received, sent, tx_count, received_count, sent_count FROM scripts WHERE id = ?');
  for (const t of totals) {
    const row = select.get(t.scriptId) as Row | undefined;
    if (!row) throw new StoreError(`script id ${t.scriptId} not found`);
    addToTotals(st, row, t);
  }
}

/** A script row as read before a batch: its id, bytes and exact totals (null totals: created by this batch). */
interface ScriptState {
  readonly id: number;
  readonly script: Uint8Array;
  readonly row: Row | null;
}

/**
 * The scripts a block batch touches, each read once: by bytes for output scripts (new ones get the next ids
 * here, in first-appearance order, and are inserted with their totals at the end), by id for the scripts of
 * spent prevouts. Totals are then written once per script: one UPDATE each, multi-row INSERTs for new ones.
 */
export class ScriptBook {
  private readonly byId = new Map<number, ScriptState>();
  private nextId: number;

  constructor(private readonly st: Statements, private readonly net: number) {
    const row = st.get('SELECT max(id) AS id FROM scripts').get() as Row;
    this.nextId = row.id === null ? 1 : num(row.id) + 1;
  }

  /** Ids of output scripts by key, creating ids for unknown scripts (in first-appearance order). */
  resolve(scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
    const select = this.st.get('SELECT id, received, sent, tx_count, received_count, sent_count FROM scripts WHERE net = ? AND script = ?');
    // Look up in key order (index locality), then number the new ones in the order they appear.
    const found = new Map<string, Row>();
    for (const key of [...scripts.keys()].sort()) {
      const row = select.get(this.net, scripts.get(key)) as Row | undefined;
      if (row) found.set(key, row);
    }
    const ids = new Map<string, number>();
    for (const [key, script] of scripts) {
      const row = found.get(key);
      const id = row ? num(row.id) : this.nextId++;
      this.byId.set(id, { id, script, row: row ?? null });
      ids.set(key, id);
    }
    return ids;
  }

  /** Reads the rows of existing script ids not read yet (the scripts of spent prevouts). */
  load(ids: Iterable<number>): void {
    const select = this.st.get('SELECT script, received, sent, tx_count, received_count, sent_count FROM scripts WHERE id = ?');
    const missing = [...new Set(ids)].filter((id) => !this.byId.has(id)).sort((a, b) => a - b);
    for (const id of missing) {
      const row = select.get(id) as Row | undefined;
      if (!row) throw new StoreError(`script id ${id} not found`);
      this.byId.set(id, { id, script: row.script as Buffer, row });
    }
  }

  /** Script bytes of an id read by resolve or load. */
  script(id: number): Uint8Array {
    const state = this.byId.get(id);
    if (!state) throw new StoreError(`script id ${id} not loaded`);
    return state.script;
  }

  /** Writes every touched script's new totals (and the new scripts themselves). */
  write(totals: readonly TotalsDelta[]): void {
    const insert = new BulkInsert(this.st, 'INSERT INTO scripts (id, net, script, received, sent, tx_count, received_count, sent_count)', 8);
    const v = insert.values;
    const inserted = new Set<number>();
    for (const t of [...totals].sort((a, b) => a.scriptId - b.scriptId)) {
      const state = this.byId.get(t.scriptId);
      if (!state) throw new StoreError(`script id ${t.scriptId} not found`);
      const row = state.row;
      if (row) {
        addToTotals(this.st, row, t);
      } else {
        const o = insert.next();
        v[o] = t.scriptId; v[o + 1] = this.net; v[o + 2] = state.script; v[o + 3] = t.received.toString();
        v[o + 4] = t.sent.toString(); v[o + 5] = t.txCount; v[o + 6] = t.receivedCount; v[o + 7] = t.sentCount;
        inserted.add(t.scriptId);
      }
    }
    // A new script always has totals (an output of the batch pays it); kept for safety.
    for (const state of this.byId.values()) {
      if (state.row || inserted.has(state.id)) continue;
      const o = insert.next();
      v[o] = state.id; v[o + 1] = this.net; v[o + 2] = state.script; v[o + 3] = '0'; v[o + 4] = '0'; v[o + 5] = 0; v[o + 6] = 0; v[o + 7] = 0;
    }
    insert.finish();
  }
}
