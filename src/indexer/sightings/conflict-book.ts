/**
 * Conflicting spends seen by the listener, both directions of each pair: "a conflicts with b as relation" is kept
 * under a, and the inverse under b. Bounded: at most `maxTxs` txids (the oldest detections go first) and none older
 * than `maxAgeMs` (as long as a removed tx stays queryable, mempool_removed_keep_hours).
 */
import type { ConflictRelation, Outpoint, TxConflict } from '../../core/index.js';

export const DEFAULT_CONFLICT_TXS = 20_000;
export const DEFAULT_CONFLICT_MAX_AGE_MS = 72 * 3600_000;

const INVERSE: Record<ConflictRelation, ConflictRelation> = { 'double-spend': 'double-spend', replaces: 'replaced-by', 'replaced-by': 'replaces' };

export class ConflictBook {
  private readonly byTx = new Map<string, TxConflict[]>();

  constructor(
    private readonly maxTxs = DEFAULT_CONFLICT_TXS,
    private readonly maxAgeMs = DEFAULT_CONFLICT_MAX_AGE_MS,
  ) {}

  get size(): number {
    return this.byTx.size;
  }

  conflicts(txid: string): readonly TxConflict[] {
    return this.byTx.get(txid) ?? [];
  }

  /** Records that `a` relates to `b` as `relation` (and b to a inversely); false when the pair was known. */
  add(a: string, b: string, relation: ConflictRelation, outpoint: Outpoint, nowMs: number): boolean {
    if (a === b || this.conflicts(a).some((c) => c.txid === b)) return false;
    this.push(a, { txid: b, relation, outpoint, detectedAtMs: nowMs });
    this.push(b, { txid: a, relation: INVERSE[relation], outpoint, detectedAtMs: nowMs });
    return true;
  }

  prune(nowMs: number): void {
    for (const [txid, list] of this.byTx) {
      if (nowMs - list[0]!.detectedAtMs <= this.maxAgeMs) break;
      this.byTx.delete(txid);
    }
  }

  private push(txid: string, conflict: TxConflict): void {
    const list = this.byTx.get(txid);
    if (list) {
      list.push(conflict);
      return;
    }
    if (this.byTx.size >= this.maxTxs) this.byTx.delete(this.byTx.keys().next().value!);
    this.byTx.set(txid, [conflict]);
  }
}
