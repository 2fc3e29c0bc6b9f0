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

export function planMempoolAdd(entries: readonly MempoolEntry[], state: MempoolState): MempoolPlan {
  const plan: MempoolPlan = { deleteRemoved: [], txs: [], outputs: [], spends: [], flagDoubleSpent: [], results: [] };
  const added = new Map<string, MempoolPrevout>();
  const addedSpenders = new Map<string, string[]>();
  const seen = new Set<string>();
  const resultByTxid = new Map<string, MempoolAddResult>();
  for (const { tx, seenAt } of parentsFirst(entries)) {
    const known = state.known.get(tx.txid);
    if (seen.has(tx.txid)) continue;
    if (known === 'mempool') { resultByTxid.set(tx.txid, result(tx, 'known')); continue; }
    if (known === 'confirmed') { resultByTxid.set(tx.txid, result(tx, 'confirmed')); continue; }
    seen.add(tx.txid);
    const missing: Outpoint[] = [];
    const inputs: EffectInput[] = [];
    const stored: (StoredPrevout | null)[] = [];
    const conflicts = new Set<string>();
    let conflictsConfirmed = false;
    for (const [vin, input] of tx.inputs.entries()) {
      const key = outpointKey(input.prevTxid, input.prevVout);
      const prev = added.get(key) ?? state.prevouts.get(key);
      if (!prev || tx.isCoinbase) { missing.push({ txid: input.prevTxid, vout: input.prevVout }); continue; }
      if (prev.confirmedSpender !== null && prev.confirmedSpender !== tx.txid) {
        conflicts.add(prev.confirmedSpender);
        conflictsConfirmed = true;
      }
      for (const other of [...(state.spenders.get(key) ?? []), ...(addedSpenders.get(key) ?? [])]) {
        if (other !== tx.txid) conflicts.add(other);
      }
      const sp: StoredPrevout = { txid: input.prevTxid, vout: input.prevVout, value: prev.value, scriptId: prev.scriptId };
      stored.push(sp);
      inputs.push({ vin, prev: sp, script: prev.script });
    }
    if (missing.length > 0) { resultByTxid.set(tx.txid, result(tx, 'missing-parent', { missing })); continue; }
    const outputs: EffectOutput[] = tx.outputs.map((o, vout) => ({
      vout, value: o.value, scriptId: state.scriptIds.get(scriptKey(o.script)) ?? 0, script: o.script,
    }));
    const fee = inputs.reduce((s, i) => s + i.prev.value, 0n) - outputs.reduce((s, o) => s + o.value, 0n);
    const doubleSpent = conflicts.size > 0;
    if (known === 'removed') plan.deleteRemoved.push(tx.txid);
    plan.txs.push({
      txid: tx.txid, raw: copyBytes(tx.raw), size: tx.size, vsize: tx.vsize, weight: tx.weight, fee, seenAt,
      prevouts: packPrevouts(stored), doubleSpent, removed: conflictsConfirmed,
    });
    let deltas: MempoolAddResult['deltas'] = [];
    if (!conflictsConfirmed) {
      for (const o of outputs) {
        plan.outputs.push({ txid: tx.txid, vout: o.vout, value: o.value, scriptId: o.scriptId });
        added.set(outpointKey(tx.txid, o.vout), { value: o.value, scriptId: o.scriptId, script: o.script, confirmedSpender: null });
      }
      for (const i of inputs) {
        plan.spends.push({ prevTxid: i.prev.txid, prevVout: i.prev.vout, txid: tx.txid, vin: i.vin, scriptId: i.prev.scriptId, value: i.prev.value });
        const key = outpointKey(i.prev.txid, i.prev.vout);
        addedSpenders.set(key, [...(addedSpenders.get(key) ?? []), tx.txid]);
      }
      for (const other of conflicts) plan.flagDoubleSpent.push(other);
      deltas = txEffects(tx.txid, outputs, inputs).map(toDelta);
    }
    const prevouts = inputs.map((i) => ({ txid: i.prev.txid, vout: i.prev.vout, value: i.prev.value, script: i.script }));
    resultByTxid.set(tx.txid, result(tx, 'added', { fee, doubleSpent, conflictsWith: [...conflicts], deltas, prevouts }));
  }
  // Answer in the caller's order, not the parents-first processing order.
  plan.results = entries.map((e) => resultByTxid.get(e.tx.txid) ?? result(e.tx, 'known'));
  return plan;
}
