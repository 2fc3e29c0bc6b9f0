/**
 * The writer's memory of script rows between block batches: key and exact confirmed totals by script bytes.
 * Addresses are paid again and again, so during initial sync most of a batch's scripts were read or written by
 * an earlier batch; without this every batch looks each one up again (a B-tree search per script by its bytes)
 * and reads its totals before adding to them. Totals stay bigint: exact past 2^63.
 *
 * Coherence rules, kept by the driver that owns it (one per network writer):
 * - changes of a write transaction are staged and applied only after it commits (`commit`), dropped otherwise;
 * - anything else that changes script rows (undo, another connection, a mempool insert of new scripts) either
 *   calls `clear` or `forgetCompleteness`;
 * - `complete` means every script row of the network is in the cache (the network had none when the cache
 *   started and nothing was evicted), so a miss is a new script without asking the database.
 */
import { scriptKey } from '../schema/codec.js';
import type { TotalsDelta } from './tx-effects.js';

export interface CachedScript {
  /** The script's key in its network's scripts table (script-keys.ts). */
  readonly id: number;
  /** scriptKey of the script bytes (latin1): a string costs a fraction of a Buffer per entry. */
  readonly key: string;
  readonly received: bigint;
  readonly sent: bigint;
  readonly txCount: number;
  readonly receivedCount: number;
  readonly sentCount: number;
}

/**
 * Entries kept at most: about 220 bytes each (measured, a 25-byte script's key included), so about 55 MB, within
 * the indexer's 1 GiB peak-RSS budget next to two batches of parsed blocks and SQLite's 128 MiB page cache.
 * The 100k-tx bench chain has 196,725 scripts: all of them fit.
 */
export const SCRIPT_CACHE_ENTRIES = 250_000;

export class ScriptCache {
  private readonly byKey = new Map<string, CachedScript>();
  private readonly byId = new Map<number, CachedScript>();
  private staged: CachedScript[] = [];
  /** null: not known yet (the driver checks whether the network has any script row). */
  private completeState: boolean | null = null;

  constructor(private readonly maxEntries = SCRIPT_CACHE_ENTRIES) {}

  get complete(): boolean | null {
    return this.completeState;
  }

  /** The driver's answer once it has asked whether the network has any script row (true only when none). */
  setComplete(value: boolean): void {
    this.completeState = value;
  }

  get size(): number {
    return this.byKey.size;
  }

  byScript(key: string): CachedScript | undefined {
    return this.byKey.get(key);
  }

  byScriptId(id: number): CachedScript | undefined {
    return this.byId.get(id);
  }

  /** A row as the transaction in progress leaves it; visible after commit(). */
  stage(entry: CachedScript): void {
    this.staged.push(entry);
  }

  commit(): void {
    for (const entry of this.staged) {
      const old = this.byKey.get(entry.key);
      if (old && old.id !== entry.id) this.byId.delete(old.id);
      this.byKey.set(entry.key, entry);
      this.byId.set(entry.id, entry);
    }
    this.staged = [];
    this.evict();
  }

  /** The transaction rolled back: its staged rows never existed. */
  abort(): void {
    this.staged = [];
  }

  /** Rows may have changed behind the cache: start over (completeness is asked again). */
  clear(): void {
    this.byKey.clear();
    this.byId.clear();
    this.staged = [];
    this.completeState = null;
  }

  /** Script rows were inserted without the cache (e.g. by the mempool): a miss must ask the database again. */
  forgetCompleteness(): void {
    if (this.completeState === true) this.completeState = false;
  }

  // Oldest first: Map order is insertion order (an updated entry keeps its place), so this is FIFO, not LRU.
  private evict(): void {
    if (this.byKey.size <= this.maxEntries) return;
    const target = Math.floor(this.maxEntries * 0.8);
    for (const [key, entry] of this.byKey) {
      if (this.byKey.size <= target) break;
      this.byKey.delete(key);
      this.byId.delete(entry.id);
    }
    this.completeState = false;
  }
}

/** An entry's totals after a batch's delta (the same sums the database row receives). */
export function withDelta(entry: CachedScript, t: TotalsDelta): CachedScript {
  return {
    id: entry.id, key: entry.key,
    received: entry.received + t.received, sent: entry.sent + t.sent,
    txCount: entry.txCount + t.txCount, receivedCount: entry.receivedCount + t.receivedCount, sentCount: entry.sentCount + t.sentCount,
  };
}

/** A script row with zero totals (a script the batch creates). */
export function emptyScript(key: number, script: Uint8Array): CachedScript {
  return { id: key, key: scriptKey(script), received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };
}
