/**
 * Disconnecting a block needs no separate undo table: its own outputs are still stored, and every output it spent
 * names it (spent_by, spent_vin). From those two the exact inverse of connectBlocks is recomputed with the same
 * tx-effects code, so the two can never disagree.
 */
import { StoreError } from '../../core/errors.js';
import type { ScriptDelta } from '../../core/store.js';
import { TotalsAccumulator, toDelta, txEffects, type EffectInput, type EffectOutput, type TotalsDelta } from './tx-effects.js';

/** An output the block spent (created earlier, or by the block itself). */
export interface UndoInput {
  readonly spender: number;
  readonly vin: number;
  readonly id: number;
  readonly vout: number;
  readonly value: bigint;
  readonly scriptKey: number;
}

/** An output the block created. */
export interface UndoOutput {
  readonly id: number;
  readonly vout: number;
  readonly value: bigint;
  readonly scriptKey: number;
}

export interface UndoPlan {
  /** Subtract from the script totals (already negated). */
  readonly totals: TotalsDelta[];
  /** History rows to delete: [script key, tx id]. */
  readonly history: [number, number][];
  readonly deltas: ScriptDelta[];
}

export function planUndo(
  txs: readonly { id: number; txid: string }[],
  inputs: readonly UndoInput[],
  outputs: readonly UndoOutput[],
  scripts: ReadonlyMap<number, Uint8Array>,
): UndoPlan {
  const script = (key: number): Uint8Array => {
    const s = scripts.get(key);
    if (!s) throw new StoreError(`undo: script key ${key} not found`);
    return s;
  };
  const outputsByTx = new Map<number, EffectOutput[]>();
  for (const o of outputs) {
    const list = outputsByTx.get(o.id) ?? [];
    list.push({ vout: o.vout, value: o.value, scriptId: o.scriptKey, script: script(o.scriptKey) });
    outputsByTx.set(o.id, list);
  }
  const inputsByTx = new Map<number, EffectInput[]>();
  for (const i of [...inputs].sort((a, b) => a.spender - b.spender || a.vin - b.vin)) {
    const list = inputsByTx.get(i.spender) ?? [];
    list.push({ vin: i.vin, prev: { txid: '', vout: i.vout, value: i.value, scriptId: i.scriptKey }, script: script(i.scriptKey) });
    inputsByTx.set(i.spender, list);
  }
  const totals = new TotalsAccumulator();
  const history: [number, number][] = [];
  const deltas: ScriptDelta[] = [];
  for (const tx of txs) {
    for (const effect of txEffects(tx.txid, outputsByTx.get(tx.id) ?? [], inputsByTx.get(tx.id) ?? [])) {
      totals.add(effect, -1);
      history.push([effect.scriptId, tx.id]);
      deltas.push(toDelta(effect));
    }
  }
  return { totals: totals.values(), history, deltas };
}
