/**
 * Script rows of one network for SQLite: keys (script-keys.ts: a hash, then linear probing on a collision) and exact
 * totals. Totals are INTEGER while they fit 64 bits and TEXT decimals beyond (the columns have no declared type, so
 * SQLite keeps either as given; an overflowing INTEGER would silently become a float).
 */
import { StoreError } from '../../../core/domain/errors.js';
import { sameBytes, scriptKey } from '../../common/schema/codec.js';
import { emptyScript, withDelta, type CachedScript, type ScriptCache } from '../../common/chain-writes/script-cache.js';
import { nextKey } from '../../common/chain-writes/script-keys.js';
import type { TotalsDelta } from '../../common/chain-writes/tx-effects.js';
import { BulkInsert } from './sqlite-bulk.js';
import type { SqliteNet } from './sqlite-net.js';
import { num, type Row } from '../connection/sqlite-statements.js';

const MAX_I64 = 2n ** 63n - 1n;

/** A total as stored: an INTEGER while it fits, else its decimal text. */
export function storedTotal(value: bigint): bigint | string {
  return value <= MAX_I64 && value >= -MAX_I64 ? value : value.toString();
}

export function readTotal(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(value as string | number);
}

/** A script row as read (sums exact past 2^63). */
export function cachedRow(row: Row): CachedScript {
  const script = row.script as Buffer;
  return {
    id: num(row.key), key: scriptKey(script), received: readTotal(row.received), sent: readTotal(row.sent),
    txCount: num(row.tx_count), receivedCount: num(row.received_count), sentCount: num(row.sent_count),
  };
}

/** The stored row of a script (probing from its base key), or null with the first free key of its probe sequence. */
export function findScript(n: SqliteNet, script: Uint8Array, taken?: ReadonlySet<number>): { row: Row | null; key: number } {
  const select = n.st.get(`SELECT * FROM ${n.t.scripts} WHERE key = ?`);
  for (let key = n.keys.base(script); ; key = nextKey(key)) {
    const row = select.get(key) as Row | undefined;
    if (!row) {
      if (taken?.has(key)) continue;
      return { row: null, key };
    }
    if (sameBytes(row.script as Buffer, script)) return { row, key };
  }
}

export function scriptsByKey(n: SqliteNet, keys: Iterable<number>): Map<number, Uint8Array> {
  const select = n.st.get(`SELECT script FROM ${n.t.scripts} WHERE key = ?`);
  const out = new Map<number, Uint8Array>();
  for (const key of keys) {
    if (out.has(key)) continue;
    const row = select.get(key) as Row | undefined;
    if (!row) throw new StoreError(`script key ${key} not found`);
    out.set(key, row.script as Buffer);
  }
  return out;
}

/** Writes a script row's new totals; a key without a row fails (its totals would be lost silently). */
function updateTotals(n: SqliteNet, entry: CachedScript): void {
  const { changes } = n.st.get(`UPDATE ${n.t.scripts} SET received = ?, sent = ?, tx_count = ?, received_count = ?, sent_count = ? WHERE key = ?`)
    .run(storedTotal(entry.received), storedTotal(entry.sent), entry.txCount, entry.receivedCount, entry.sentCount, entry.id);
  if (changes !== 1) throw new StoreError(`script key ${entry.id} not found`);
}

function readScriptRow(n: SqliteNet, key: number): { script: Buffer; row: CachedScript } {
  const row = n.st.get(`SELECT * FROM ${n.t.scripts} WHERE key = ?`).get(key) as Row | undefined;
  if (!row) throw new StoreError(`script key ${key} not found`);
  return { script: row.script as Buffer, row: cachedRow(row) };
}

/** Adds per-script deltas (negative when a block is disconnected) to the stored totals. */
export function applyTotals(n: SqliteNet, totals: readonly TotalsDelta[]): void {
  for (const t of totals) updateTotals(n, withDelta(readScriptRow(n, t.scriptId).row, t));
}

/** Inserts scripts that have no row yet with zero totals (the mempool's new scripts); returns every script's key. */
export function ensureScripts(n: SqliteNet, scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
  const insert = n.st.get(`INSERT INTO ${n.t.scripts} (key, script, received, sent, tx_count, received_count, sent_count) VALUES (?, ?, 0, 0, 0, 0, 0)`);
  const keys = new Map<string, number>();
  for (const [k, script] of scripts) {
    const found = findScript(n, script);
    if (!found.row) insert.run(found.key, script);
    keys.set(k, found.key);
  }
  return keys;
}

/** A script as the batch found it: its key, bytes and totals (null totals: created by this batch). */
interface ScriptState {
  readonly key: number;
  readonly script: Uint8Array;
  readonly row: CachedScript | null;
}

/**
 * The scripts a block batch touches, each read once: output scripts by their bytes (new ones get the first free key
 * of their probe sequence and are inserted with their totals at the end), prevout scripts by key. The ScriptCache
 * answers first; only its misses are read (none when it is complete). Totals are then written once per script.
 */
export class ScriptBook {
  private readonly byKey = new Map<number, ScriptState>();
  /** Keys given to new scripts of this batch (free in the table, but no longer free for the next new script). */
  private readonly fresh = new Set<number>();

  constructor(private readonly n: SqliteNet, private readonly cache: ScriptCache) {
    if (cache.complete === null) cache.setComplete(!n.st.get(`SELECT 1 FROM ${n.t.scripts} LIMIT 1`).get());
  }

  /** Keys of output scripts by scriptKey string, creating keys for unknown scripts (in first-appearance order). */
  resolve(scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
    const keys = new Map<string, number>();
    for (const [k, script] of scripts) {
      const hit = this.cache.byScript(k);
      if (hit) {
        this.byKey.set(hit.id, { key: hit.id, script, row: hit });
        keys.set(k, hit.id);
        continue;
      }
      const found = this.cache.complete ? this.probeCache(script) : findScript(this.n, script, this.fresh);
      const row = found.row ? cachedRow(found.row) : null;
      if (!row) this.fresh.add(found.key);
      this.byKey.set(found.key, { key: found.key, script, row });
      keys.set(k, found.key);
    }
    return keys;
  }

  /** With every script of the network cached, the first key of the probe sequence not cached or taken is free. */
  private probeCache(script: Uint8Array): { row: null; key: number } {
    let key = this.n.keys.base(script);
    while (this.cache.byScriptId(key) || this.fresh.has(key)) key = nextKey(key);
    return { row: null, key };
  }

  /** Reads the rows of existing script keys not read yet (the scripts of spent prevouts). */
  load(keys: Iterable<number>): void {
    const missing: number[] = [];
    for (const key of keys) {
      if (this.byKey.has(key)) continue;
      const hit = this.cache.byScriptId(key);
      if (hit) this.byKey.set(key, { key, script: Buffer.from(hit.key, 'latin1'), row: hit });
      else missing.push(key);
    }
    for (const key of [...new Set(missing)].sort((a, b) => a - b)) {
      const { script, row } = readScriptRow(this.n, key);
      this.byKey.set(key, { key, script, row });
    }
  }

  script(key: number): Uint8Array {
    const state = this.byKey.get(key);
    if (!state) throw new StoreError(`script key ${key} not loaded`);
    return state.script;
  }

  /** Writes every touched script's new totals (and the new scripts themselves); stages them in the cache. */
  write(totals: readonly TotalsDelta[]): void {
    const { n } = this;
    const insert = new BulkInsert(n.st, `INSERT INTO ${n.t.scripts} (key, script, received, sent, tx_count, received_count, sent_count)`, 7);
    const v = insert.values;
    for (const t of [...totals].sort((a, b) => a.scriptId - b.scriptId)) {
      const state = this.byKey.get(t.scriptId);
      if (!state) throw new StoreError(`script key ${t.scriptId} not found`);
      const next = withDelta(state.row ?? emptyScript(state.key, state.script), t);
      if (state.row) {
        // A cached key the database lacks fails the batch here.
        updateTotals(n, next);
      } else {
        const o = insert.next();
        v[o] = next.id; v[o + 1] = state.script; v[o + 2] = storedTotal(next.received); v[o + 3] = storedTotal(next.sent);
        v[o + 4] = next.txCount; v[o + 5] = next.receivedCount; v[o + 6] = next.sentCount;
      }
      this.cache.stage(next);
    }
    insert.finish();
  }
}
