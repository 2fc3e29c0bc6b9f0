/**
 * The confirmed tx ids of a set of scripts (a wallet), newest first, kept per set while the chain's tip stays: history
 * rows change only when blocks are connected or disconnected, and either moves the tip. A wallet's tx count is then
 * the list's length and each page of its history a slice, instead of a DISTINCT over all its history rows per request
 * (docs/benchmarks.md, "Wallets"). Bounded by the ids held, least recently used sets forgotten first.
 * The set's confirmed flows from and to outside it (script-set-reads.ts, ScriptSetFlows) are kept the same way, for
 * the same reason: they read every confirmed tx of the set. Bounded by the number of sets (two sums each).
 */
import { createHash } from 'node:crypto';
import type { ScriptSetFlows } from '../../../core/store/script-set-reads.js';

/** 8 bytes an id: a million ids is 8 MB. */
export const DEFAULT_MAX_IDS = 1_000_000;
/** About 200 bytes a set (its id, tip text and two bigints): 10,000 sets is some 2 MB. */
export const DEFAULT_MAX_FLOW_SETS = 10_000;

interface Entry {
  readonly tip: string;
  readonly ids: Float64Array;
}

export class ConfirmedIdsMemo {
  private readonly entries = new Map<string, Entry>();
  private readonly flows = new Map<string, { readonly tip: string; readonly flows: ScriptSetFlows }>();
  private held = 0;

  constructor(private readonly maxIds = DEFAULT_MAX_IDS, private readonly maxFlowSets = DEFAULT_MAX_FLOW_SETS) {}

  getFlows(setId: string, tip: string): ScriptSetFlows | null {
    const entry = this.flows.get(setId);
    if (!entry || entry.tip !== tip) return null;
    this.flows.delete(setId);
    this.flows.set(setId, entry);
    return entry.flows;
  }

  setFlows(setId: string, tip: string, flows: ScriptSetFlows): void {
    this.flows.delete(setId);
    this.flows.set(setId, { tip, flows });
    // Least recently used first: the Map keeps insertion order and every use re-inserts.
    if (this.flows.size > this.maxFlowSets) this.flows.delete(this.flows.keys().next().value!);
  }

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
