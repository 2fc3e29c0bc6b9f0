/**
 * Decides what addMempoolTxs writes, from state the driver reads in bulk beforehand. Kept pure so both
 * engines classify missing parents and double spends identically.
 */
import type { Transaction, Outpoint } from '../../../core/domain/chain-types.js';
import type { MempoolAddResult, MempoolEntry } from '../../../core/store/chain-writes.js';
import { copyBytes, outpointKey, packPrevouts, scriptKey, type StoredPrevout } from '../schema/codec.js';
import { toDelta, txEffects, type EffectInput, type EffectOutput } from './tx-effects.js';

export type KnownState = 'confirmed' | 'mempool' | 'removed';

export interface MempoolPrevout {
  readonly value: bigint;
  readonly scriptId: number;
  readonly script: Uint8Array;
  /** The confirmed tx that spent it, if any. */
  readonly confirmedSpender: string | null;
}

export interface MempoolState {
  readonly known: ReadonlyMap<string, KnownState>;
  /** Confirmed main-chain outputs and live mempool outputs, by outpoint key. */
  readonly prevouts: ReadonlyMap<string, MempoolPrevout>;
  /** Live mempool spenders by outpoint key. */
  readonly spenders: ReadonlyMap<string, readonly string[]>;
  readonly scriptIds: ReadonlyMap<string, number>;
}

export interface MempoolTxRow {
  txid: string; raw: Buffer; size: number; vsize: number; weight: number; fee: bigint; seenAt: number;
  prevouts: Buffer; doubleSpent: boolean; removed: boolean;
}
export interface MempoolOutputRow { txid: string; vout: number; value: bigint; scriptId: number }
export interface MempoolSpendRow { prevTxid: string; prevVout: number; txid: string; vin: number; scriptId: number; value: bigint }

export interface MempoolPlan {
  /** Rows of previously removed txs that are re-added: delete them first. */
  deleteRemoved: string[];
  txs: MempoolTxRow[];
  outputs: MempoolOutputRow[];
  spends: MempoolSpendRow[];
  /** Already stored mempool txs that a new tx double-spends. */
  flagDoubleSpent: string[];
  results: MempoolAddResult[];
}

/** Every outpoint the entries spend, and every output script (the driver resolves these in bulk). */
export function mempoolNeeds(entries: readonly MempoolEntry[]): { outpoints: Outpoint[]; scripts: Map<string, Uint8Array> } {
  const outpoints = new Map<string, Outpoint>();
  const scripts = new Map<string, Uint8Array>();
  for (const { tx } of entries) {
    if (!tx.isCoinbase) for (const i of tx.inputs) outpoints.set(outpointKey(i.prevTxid, i.prevVout), { txid: i.prevTxid, vout: i.prevVout });
    for (const o of tx.outputs) scripts.set(scriptKey(o.script), o.script);
  }
  return { outpoints: [...outpoints.values()], scripts };
}

/** Parents before children when both arrive in one call. */
function parentsFirst(entries: readonly MempoolEntry[]): MempoolEntry[] {
  const byTxid = new Map(entries.map((e) => [e.tx.txid, e]));
  const done = new Set<string>();
  const ordered: MempoolEntry[] = [];
  const visit = (e: MempoolEntry, depth: number): void => {
    if (done.has(e.tx.txid) || depth > entries.length) return;
    done.add(e.tx.txid);
    for (const input of e.tx.inputs) {
      const parent = byTxid.get(input.prevTxid);
      if (parent) visit(parent, depth + 1);
    }
    ordered.push(e);
  };
  for (const e of entries) visit(e, 0);
  return ordered;
}

function result(tx: Transaction, status: MempoolAddResult['status'], extra: Partial<MempoolAddResult> = {}): MempoolAddResult {
  return { txid: tx.txid, status, fee: null, doubleSpent: false, conflictsWith: [], missing: [], deltas: [], prevouts: [], ...extra };
}

/** What a tx's inputs spend, as found in the store's state and the txs added before it in this call. */
interface ResolvedInputs {
  readonly missing: Outpoint[];
  readonly inputs: EffectInput[];
  readonly stored: (StoredPrevout | null)[];
  /** Txs (confirmed or in the mempool) that spend an output this tx spends. */
  readonly conflicts: Set<string>;
  /** A confirmed tx spends one of them: this tx can never confirm. */
  readonly conflictsConfirmed: boolean;
}

/** One addMempoolTxs call's plan, built tx by tx (parents first) so a child sees its parent's outputs. */
class MempoolAddPlanner {
  readonly plan: MempoolPlan = { deleteRemoved: [], txs: [], outputs: [], spends: [], flagDoubleSpent: [], results: [] };
  /** Outputs and spends of txs this call added (not yet in the store's state). */
  private readonly added = new Map<string, MempoolPrevout>();
  private readonly addedSpenders = new Map<string, string[]>();
  private readonly done = new Set<string>();
  readonly results = new Map<string, MempoolAddResult>();

  constructor(private readonly state: MempoolState) {}

  add(tx: Transaction, seenAt: number): void {
    const known = this.state.known.get(tx.txid);
    if (this.done.has(tx.txid)) return;
    if (known === 'mempool') return void this.results.set(tx.txid, result(tx, 'known'));
    if (known === 'confirmed') return void this.results.set(tx.txid, result(tx, 'confirmed'));
    this.done.add(tx.txid);
    const resolved = this.resolveInputs(tx);
    if (resolved.missing.length > 0) return void this.results.set(tx.txid, result(tx, 'missing-parent', { missing: resolved.missing }));
    const { inputs, conflicts, conflictsConfirmed } = resolved;
    const outputs: EffectOutput[] = tx.outputs.map((o, vout) => ({
      vout, value: o.value, scriptId: this.state.scriptIds.get(scriptKey(o.script)) ?? 0, script: o.script,
    }));
    const fee = inputs.reduce((s, i) => s + i.prev.value, 0n) - outputs.reduce((s, o) => s + o.value, 0n);
    const doubleSpent = conflicts.size > 0;
    if (known === 'removed') this.plan.deleteRemoved.push(tx.txid);
    this.plan.txs.push({
      txid: tx.txid, raw: copyBytes(tx.raw), size: tx.size, vsize: tx.vsize, weight: tx.weight, fee, seenAt,
      prevouts: packPrevouts(resolved.stored), doubleSpent, removed: conflictsConfirmed,
    });
    // A tx a confirmed tx conflicts with is stored as removed: its outputs and spends are not live.
    const deltas = conflictsConfirmed ? [] : this.makeLive(tx, outputs, inputs, conflicts);
    const prevouts = inputs.map((i) => ({ txid: i.prev.txid, vout: i.prev.vout, value: i.prev.value, script: i.script }));
    this.results.set(tx.txid, result(tx, 'added', { fee, doubleSpent, conflictsWith: [...conflicts], deltas, prevouts }));
  }

  private resolveInputs(tx: Transaction): ResolvedInputs {
    const missing: Outpoint[] = [];
    const inputs: EffectInput[] = [];
    const stored: StoredPrevout[] = [];
    const conflicts = new Set<string>();
    let conflictsConfirmed = false;
    for (const [vin, input] of tx.inputs.entries()) {
      const key = outpointKey(input.prevTxid, input.prevVout);
      const prev = this.added.get(key) ?? this.state.prevouts.get(key);
      if (!prev || tx.isCoinbase) { missing.push({ txid: input.prevTxid, vout: input.prevVout }); continue; }
      if (prev.confirmedSpender !== null && prev.confirmedSpender !== tx.txid) {
        conflicts.add(prev.confirmedSpender);
        conflictsConfirmed = true;
      }
      for (const other of [...(this.state.spenders.get(key) ?? []), ...(this.addedSpenders.get(key) ?? [])]) {
        if (other !== tx.txid) conflicts.add(other);
      }
      const sp: StoredPrevout = { txid: input.prevTxid, vout: input.prevVout, value: prev.value, scriptId: prev.scriptId };
      stored.push(sp);
      inputs.push({ vin, prev: sp, script: prev.script });
    }
    return { missing, inputs, stored, conflicts, conflictsConfirmed };
  }

  /** Its outputs and spends become live (later txs of the call see them); the txs it conflicts with are flagged. */
  private makeLive(tx: Transaction, outputs: readonly EffectOutput[], inputs: readonly EffectInput[], conflicts: ReadonlySet<string>): MempoolAddResult['deltas'] {
    for (const o of outputs) {
      this.plan.outputs.push({ txid: tx.txid, vout: o.vout, value: o.value, scriptId: o.scriptId });
      this.added.set(outpointKey(tx.txid, o.vout), { value: o.value, scriptId: o.scriptId, script: o.script, confirmedSpender: null });
    }
    for (const i of inputs) {
      this.plan.spends.push({ prevTxid: i.prev.txid, prevVout: i.prev.vout, txid: tx.txid, vin: i.vin, scriptId: i.prev.scriptId, value: i.prev.value });
      const key = outpointKey(i.prev.txid, i.prev.vout);
      this.addedSpenders.set(key, [...(this.addedSpenders.get(key) ?? []), tx.txid]);
    }
    for (const other of conflicts) this.plan.flagDoubleSpent.push(other);
    return txEffects(tx.txid, outputs, inputs).map(toDelta);
  }
}

/**
 * Classifies each entry (known, confirmed, missing a parent, added: live or removed by a confirmed conflict) and
 * lists the rows to write, parents before children.
 */
export function planMempoolAdd(entries: readonly MempoolEntry[], state: MempoolState): MempoolPlan {
  const planner = new MempoolAddPlanner(state);
  for (const { tx, seenAt } of parentsFirst(entries)) planner.add(tx, seenAt);
  // Answer in the caller's order, not the parents-first processing order.
  const { plan, results } = planner;
  plan.results = entries.map((e) => results.get(e.tx.txid) ?? result(e.tx, 'known'));
  return plan;
}
