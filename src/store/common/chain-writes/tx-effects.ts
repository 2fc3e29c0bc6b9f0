/**
 * What a transaction does to each script it touches. Used when connecting (add), disconnecting (subtract)
 * and for mempool deltas, so the three can never disagree.
 */
import type { ScriptDelta } from '../../../core/domain/chain-types.js';
import type { StoredPrevout } from '../schema/codec.js';

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

/** Flags of a TxEffectSlots slot: the tx pays the script (an output) / spends from it (an input spent its output). */
export const FUNDS = 1;
export const SPENDS = 2;

/**
 * The scripts one batch touches, numbered 0, 1, … in first-seen order ("locals"), with their TotalsDelta sums in
 * arrays: a connect batch's hot loop indexes them instead of doing a Map lookup per (tx, script).
 */
export class ScriptTally {
  /** Per local: its script id and bytes. */
  readonly ids: number[];
  readonly scripts: Uint8Array[];
  private count = 0;
  /** Open-addressing table of the ids (local + 1 per used slot, 0 when free): several times cheaper than a Map. */
  private readonly slots: Int32Array;
  // A sum is only read where its count is not 0: a first amount is stored as is, so a sum of one allocates no BigInt.
  private readonly received: bigint[];
  private readonly sent: bigint[];
  private readonly txCount: Int32Array;
  private readonly receivedCount: Int32Array;
  private readonly sentCount: Int32Array;
  /** Locals in the order of their first add: the order of totals(). */
  private readonly touched: number[] = [];

  /** For at most `capacity` scripts. */
  constructor(capacity: number) {
    // A power of two at least twice the capacity keeps probe sequences short.
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(2 * capacity + 2)));
    this.ids = new Array<number>(capacity);
    this.scripts = new Array<Uint8Array>(capacity);
    this.received = new Array<bigint>(capacity);
    this.sent = new Array<bigint>(capacity);
    this.txCount = new Int32Array(capacity);
    this.receivedCount = new Int32Array(capacity);
    this.sentCount = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The local of a script id, numbered on first sight. */
  local(scriptId: number, script: Uint8Array): number {
    // Linear probing; ids are the store's sequence numbers, not chosen by whoever makes the transactions.
    const mask = this.slots.length - 1;
    let at = Math.imul((scriptId | 0) ^ Math.floor(scriptId / 0x100000000), 0x9e3779b1) & mask;
    for (let slot = this.slots[at]!; slot !== 0; slot = this.slots[at]!) {
      if (this.ids[slot - 1] === scriptId) return slot - 1;
      at = (at + 1) & mask;
    }
    const local = this.count++;
    this.slots[at] = local + 1;
    this.ids[local] = scriptId;
    this.scripts[local] = script;
    return local;
  }

  /** One tx's effect on one script (flags: FUNDS, SPENDS). */
  add(local: number, received: bigint, sent: bigint, flags: number): void {
    if (this.txCount[local]!++ === 0) this.touched.push(local);
    if (flags & FUNDS) this.received[local] = this.receivedCount[local]!++ === 0 ? received : this.received[local]! + received;
    if (flags & SPENDS) this.sent[local] = this.sentCount[local]!++ === 0 ? sent : this.sent[local]! + sent;
  }

  totals(): TotalsDelta[] {
    return this.touched.map((local) => ({
      scriptId: this.ids[local]!,
      received: this.receivedCount[local] === 0 ? 0n : this.received[local]!,
      sent: this.sentCount[local] === 0 ? 0n : this.sent[local]!,
      txCount: this.txCount[local]!,
      receivedCount: this.receivedCount[local]!,
      sentCount: this.sentCount[local]!,
    }));
  }
}

/**
 * What the tx being built does to each ScriptTally local it touches, one slot per local in first-touch order (the
 * order of its ScriptDeltas). The slots are reused from tx to tx; a per-local stamp finds a local's slot in O(1).
 */
export class TxEffectSlots {
  count = 0;
  readonly locals: number[] = [];
  readonly received: bigint[] = [];
  readonly sent: bigint[] = [];
  readonly flags: number[] = [];
  private readonly slotOf: Int32Array;
  private readonly stampOf: Int32Array;
  private stamp = 0;

  /** For locals 0 … locals - 1. */
  constructor(locals: number) {
    this.slotOf = new Int32Array(locals);
    this.stampOf = new Int32Array(locals);
  }

  /** Starts the next tx. */
  begin(): void {
    this.count = 0;
    this.stamp++;
  }

  fund(local: number, value: bigint): void {
    const slot = this.slot(local);
    const flags = this.flags[slot]!;
    this.received[slot] = flags & FUNDS ? this.received[slot]! + value : value;
    this.flags[slot] = flags | FUNDS;
  }

  spend(local: number, value: bigint): void {
    const slot = this.slot(local);
    const flags = this.flags[slot]!;
    this.sent[slot] = flags & SPENDS ? this.sent[slot]! + value : value;
    this.flags[slot] = flags | SPENDS;
  }

  private slot(local: number): number {
    if (this.stampOf[local] === this.stamp) return this.slotOf[local]!;
    const slot = this.count++;
    this.stampOf[local] = this.stamp;
    this.slotOf[local] = slot;
    this.locals[slot] = local;
    this.received[slot] = 0n;
    this.sent[slot] = 0n;
    this.flags[slot] = 0;
    return slot;
  }
}
