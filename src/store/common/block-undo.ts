/**
 * Disconnecting a block needs no separate undo table: each stored tx keeps its resolved prevouts
 * (outpoint, value, script id), and the block's own outputs are still stored. From those two the exact
 * inverse of connectBlocks is recomputed with the same tx-effects code.
 */
import { StoreError } from '../../core/errors.js';
import type { Outpoint, ScriptDelta } from '../../core/store.js';
import { outpointKey, unpackPrevouts } from './codec.js';
import { TotalsAccumulator, toDelta, txEffects, type EffectInput, type EffectOutput, type TotalsDelta } from './tx-effects.js';

export interface StoredTxForUndo {
  readonly txid: string;
  readonly prevouts: Uint8Array;
}

export interface StoredOutputForUndo {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly scriptId: number;
}

export interface UndoPlan {
  /** Outputs from earlier blocks that this block spent: mark them unspent again. */
  unspend: Outpoint[];
  /** Subtract from the script totals (already negated). */
  totals: TotalsDelta[];
  /** Scripts whose history rows at the block height must be deleted. */
  historyScriptIds: number[];
  deltas: ScriptDelta[];
}

export function planUndo(
  txs: readonly StoredTxForUndo[],
  outputs: readonly StoredOutputForUndo[],
  scriptById: ReadonlyMap<number, Uint8Array>,
): UndoPlan {
  const script = (id: number): Uint8Array => {
    const s = scriptById.get(id);
    if (!s) throw new StoreError(`undo: script id ${id} not found`);
    return s;
  };
  const outputsByTx = new Map<string, EffectOutput[]>();
  for (const o of outputs) {
    const list = outputsByTx.get(o.txid) ?? [];
    list.push({ vout: o.vout, value: o.value, scriptId: o.scriptId, script: script(o.scriptId) });
    outputsByTx.set(o.txid, list);
  }
  const created = new Set(outputs.map((o) => outpointKey(o.txid, o.vout)));
  const totals = new TotalsAccumulator();
  const scriptIds = new Set<number>();
  const unspend: Outpoint[] = [];
  const deltas: ScriptDelta[] = [];
  for (const tx of txs) {
    const inputs: EffectInput[] = [];
    unpackPrevouts(tx.prevouts).forEach((prev, vin) => {
      if (!prev) return;
      inputs.push({ vin, prev, script: script(prev.scriptId) });
      if (!created.has(outpointKey(prev.txid, prev.vout))) unspend.push({ txid: prev.txid, vout: prev.vout });
    });
    for (const effect of txEffects(tx.txid, outputsByTx.get(tx.txid) ?? [], inputs)) {
      totals.add(effect, -1);
      scriptIds.add(effect.scriptId);
      deltas.push(toDelta(effect));
    }
  }
  return { unspend, totals: totals.values(), historyScriptIds: [...scriptIds], deltas };
}

/** Script ids an undo needs bytes for (outputs and prevouts). */
export function undoScriptIds(txs: readonly StoredTxForUndo[], outputs: readonly StoredOutputForUndo[]): number[] {
  const ids = new Set<number>(outputs.map((o) => o.scriptId));
  for (const tx of txs) for (const p of unpackPrevouts(tx.prevouts)) if (p) ids.add(p.scriptId);
  return [...ids];
}
