/**
 * What a transaction does to each script it touches. Used when connecting (add), disconnecting (subtract)
 * and for mempool deltas, so the three can never disagree.
 */
import type { ScriptDelta } from '../../core/store.js';
import type { StoredPrevout } from './codec.js';

export interface EffectOutput {
  readonly vout: number;
  readonly value: bigint;
  readonly scriptId: number;
  readonly script: Uint8Array;
}

export interface EffectInput {
  readonly vin: number;
  readonly prev: StoredPrevout;
  readonly script: Uint8Array;
}

export interface TxEffect {
  readonly scriptId: number;
  readonly script: Uint8Array;
  readonly txid: string;
  received: bigint;
  sent: bigint;
  funds: boolean;
  spends: boolean;
}

export function txEffects(txid: string, outputs: readonly EffectOutput[], inputs: readonly EffectInput[]): TxEffect[] {
  const byScript = new Map<number, TxEffect>();
  const touch = (scriptId: number, script: Uint8Array): TxEffect => {
    let effect = byScript.get(scriptId);
    if (!effect) {
      effect = { scriptId, script, txid, received: 0n, sent: 0n, funds: false, spends: false };
      byScript.set(scriptId, effect);
    }
    return effect;
  };
  for (const input of inputs) {
    const e = touch(input.prev.scriptId, input.script);
    e.sent += input.prev.value;
    e.spends = true;
  }
  for (const output of outputs) {
    const e = touch(output.scriptId, output.script);
    e.received += output.value;
    e.funds = true;
  }
  return [...byScript.values()];
}

export function toDelta(effect: TxEffect): ScriptDelta {
  return { script: effect.script, txid: effect.txid, received: effect.received, sent: effect.sent };
}

/** Per-script change of the confirmed totals over a whole batch, so each script row is written once. */
export interface TotalsDelta {
  readonly scriptId: number;
  received: bigint;
  sent: bigint;
  txCount: number;
  receivedCount: number;
  sentCount: number;
}

export class TotalsAccumulator {
  private readonly byScript = new Map<number, TotalsDelta>();

  add(effect: TxEffect, sign: 1 | -1): void {
    let t = this.byScript.get(effect.scriptId);
    if (!t) {
      t = { scriptId: effect.scriptId, received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };
      this.byScript.set(effect.scriptId, t);
    }
    const big = BigInt(sign);
    t.received += big * effect.received;
    t.sent += big * effect.sent;
    t.txCount += sign;
    if (effect.funds) t.receivedCount += sign;
    if (effect.spends) t.sentCount += sign;
  }

  values(): TotalsDelta[] {
    return [...this.byScript.values()];
  }
}
