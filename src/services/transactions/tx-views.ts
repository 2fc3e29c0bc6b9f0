import type { NetworkParams } from '../../chains/network-params.js';
import type { Transaction, PrevoutInfo } from '../../core/domain/chain-types.js';
import type { Sats } from '../../core/domain/money.js';
import type { SpendRef } from '../../core/store/chain-reads.js';
import { describeScript, type ScriptDescription } from './script-description.js';

export interface TxInputView {
  readonly index: number;
  readonly coinbase: boolean;
  readonly prevTxid: string;
  readonly prevVout: number;
  /** null for a coinbase input. */
  readonly value: Sats | null;
  readonly prevScript: Uint8Array | null;
  readonly prevDescription: ScriptDescription | null;
  readonly scriptSig: Uint8Array;
  readonly witness: readonly Uint8Array[];
  readonly sequence: number;
}

export interface TxOutputView {
  readonly index: number;
  readonly value: Sats;
  readonly script: Uint8Array;
  readonly description: ScriptDescription;
  readonly spentBy: SpendRef | null;
}

/**
 * A transaction's inputs with what they spend (`prevouts[i]`, null when unknown or for a coinbase input): the one
 * view REST (get_tx, v3 transaction) and realtime (balance_update's tx) present.
 */
export function inputViews(params: NetworkParams, tx: Transaction, prevouts: readonly (PrevoutInfo | null)[] | null): TxInputView[] {
  return tx.inputs.map((input, index) => {
    const prev = prevouts?.[index] ?? null;
    return {
      index,
      coinbase: tx.isCoinbase,
      prevTxid: input.prevTxid,
      prevVout: input.prevVout,
      value: prev?.value ?? null,
      prevScript: prev?.script ?? null,
      prevDescription: prev ? describeScript(params, prev.script) : null,
      scriptSig: input.scriptSig,
      witness: input.witness,
      sequence: input.sequence,
    };
  });
}

/** A transaction's outputs with whom they pay and (when `spenders` is given) who spent them. */
export function outputViews(params: NetworkParams, tx: Transaction, spenders: ReadonlyMap<number, SpendRef | null> | null): TxOutputView[] {
  return tx.outputs.map((output, index) => ({
    index,
    value: output.value,
    script: output.script,
    description: describeScript(params, output.script),
    spentBy: spenders?.get(index) ?? null,
  }));
}
