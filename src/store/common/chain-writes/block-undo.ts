/**
 * Disconnecting a block needs no separate undo table: its own outputs are still stored, and every output it spent
 * names it (spent_by, spent_vin). From those two the exact inverse of connectBlocks is recomputed with the same
 * tx-effects code, so the two can never disagree.
 */
import { StoreError } from '../../../core/domain/errors.js';
import { packPrevouts } from '../schema/codec.js';
import type { ScriptDelta } from '../../../core/domain/chain-types.js';
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

/** What an orphaned tx keeps on its row: what its inputs spent (the mempool prevouts encoding) and its fee. */
export interface OrphanRow {
  readonly id: number;
  readonly prevouts: Buffer;
  /** null for the coinbase. */
  readonly fee: bigint | null;
}

/**
 * An orphaned tx's inputs become unspent, so what they spent is written on its row for the tx display, with its fee;
 * both are cleared if its block is connected again. `txidOf`: the txid of the tx with that id.
 */
export function orphanRows(
  txs: readonly { id: number }[], inputs: readonly UndoInput[], outputs: readonly UndoOutput[], txidOf: (id: number) => string,
): OrphanRow[] {
  const byTx = new Map<number, UndoInput[]>();
  for (const i of inputs) {
    const list = byTx.get(i.spender);
    if (list) list.push(i);
    else byTx.set(i.spender, [i]);
  }
  const outputSums = new Map<number, bigint>();
  for (const o of outputs) outputSums.set(o.id, (outputSums.get(o.id) ?? 0n) + o.value);
  return txs.map((tx, position) => {
    if (position === 0) return { id: tx.id, prevouts: packPrevouts([null]), fee: null };
    const spent = (byTx.get(tx.id) ?? []).sort((a, b) => a.vin - b.vin);
    const prevouts = spent.map((i) => ({ txid: txidOf(i.id), vout: i.vout, value: i.value, scriptId: i.scriptKey }));
    return { id: tx.id, prevouts: packPrevouts(prevouts), fee: spent.reduce((s, i) => s + i.value, 0n) - (outputSums.get(tx.id) ?? 0n) };
  });
}
