/**
 * The confirmed tx ids of a set of scripts (a wallet), newest first, kept per set while the chain's tip stays: history
 * rows change only when blocks are connected or disconnected, and either moves the tip. A wallet's tx count is then
 * the list's length and each page of its history a slice, instead of a DISTINCT over all its history rows per request
 * (docs/benchmarks.md, "Wallets"). Bounded by the ids held, least recently used sets forgotten first.
 */
import { createHash } from 'node:crypto';

/** 8 bytes an id: a million ids is 8 MB. */
export const DEFAULT_MAX_IDS = 1_000_000;

interface Entry {
  readonly tip: string;
  readonly ids: Float64Array;
}

export class ConfirmedIdsMemo {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly maxIds = DEFAULT_MAX_IDS) {}

  /** The set's identity: a digest of its script keys in order (the callers resolve scripts in a fixed order). */
  static setId(keys: readonly number[]): string {
    return createHash('sha256').update(Float64Array.from(keys)).digest('base64');
  }

  get(setId: string, tip: string): Float64Array | null {
    const entry = this.entries.get(setId);
    if (!entry || entry.tip !== tip) return null;
    // Most recently used last.
    this.entries.delete(setId);
    this.entries.set(setId, entry);
    return entry.ids;
  }

  set(setId: string, tip: string, ids: Float64Array): void {
    const old = this.entries.get(setId);
    if (old) {
      this.entries.delete(setId);
      this.held -= old.ids.length;
    }
    if (ids.length > this.maxIds) return;
    this.entries.set(setId, { tip, ids });
    this.held += ids.length;
    for (const [id, entry] of this.entries) {
      if (this.held <= this.maxIds) break;
      this.entries.delete(id);
      this.held -= entry.ids.length;
    }
  }
}
