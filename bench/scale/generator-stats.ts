/**
 * What the generated chain looks like (means, shares, ages, reuse), and the exact balance history of a few tracked
 * addresses so a benchmark can check the indexer's answer at any height against the generator's own bookkeeping.
 */
import { KIND_NAMES, kindOf } from './script-kinds.js';

/** Spend ages in blocks: 0 (same block), 1-6, 7-144, 145-1008, 1009-4320, older. */
const AGE_LIMITS = [0, 6, 144, 1008, 4320];
export const AGE_BUCKET_NAMES = ['same block', '1-6 blocks', '7-144', '145-1008', '1009-4320', 'older'];
/** Spend distances in outputs created since the spent one: what a cache of the most recent N outputs would hold. */
const DISTANCE_LIMITS = [10_000, 100_000, 1_000_000, 10_000_000];
export const DISTANCE_BUCKET_NAMES = ['< 10k outputs back', '10k-100k', '100k-1M', '1M-10M', '>= 10M'];
/** Addresses below this id get an output counter (the hot head of the power law). */
const COUNTED_IDS = 100_000;

export interface TrackedAddress {
  readonly id: number;
  balance: number;
  received: number;
  txs: number;
  /** [height, balance, received, txs] after every block that touched the address. */
  readonly history: [number, number, number, number][];
}

export interface StatsSummary {
  readonly blocks: number;
  readonly txs: number;
  readonly inputs: number;
  readonly outputs: number;
  readonly meanInputs: number;
  readonly meanOutputs: number;
  readonly opReturnTxs: number;
  readonly payouts: number;
  readonly witnessTxShare: number;
  readonly blockBytes: number;
  readonly addresses: number;
  readonly liveOutputs: number;
  readonly spendAges: Record<string, number>;
  /** Share of spends by how many outputs were created between the spent output and its spend. */
  readonly spendDistances: Record<string, number>;
  readonly outputsByKind: Record<string, number>;
  readonly topAddressOutputs: number[];
  readonly tracked: TrackedAddress[];
}

export class GeneratorStats {
  private blocks = 0;
  private txs = 0;
  private inputs = 0;
  private outputs = 0;
  private opReturns = 0;
  private payouts = 0;
  private witnessTxs = 0;
  private blockBytes = 0;
  private addresses = 0;
  private liveOutputs = 0;
  private readonly ages = new Float64Array(AGE_LIMITS.length + 1);
  private readonly distances = new Float64Array(DISTANCE_LIMITS.length + 1);
  private readonly byKind = new Float64Array(KIND_NAMES.length);
  private readonly outputsPerId = new Uint32Array(COUNTED_IDS);
  private readonly tracked: TrackedAddress[];
  private readonly trackedAt = new Map<number, TrackedAddress>();
  private readonly touched = new Set<TrackedAddress>();
  private readonly touchedInBlock = new Set<TrackedAddress>();

  constructor(trackedIds: readonly number[]) {
    this.tracked = trackedIds.map((id) => ({ id, balance: 0, received: 0, txs: 0, history: [] }));
    for (const t of this.tracked) this.trackedAt.set(t.id, t);
  }

  spent(age: number, distance: number, addr: number, value: number): void {
    let bucket = 0;
    while (bucket < AGE_LIMITS.length && age > AGE_LIMITS[bucket]!) bucket++;
    this.ages[bucket]!++;
    bucket = 0;
    while (bucket < DISTANCE_LIMITS.length && distance >= DISTANCE_LIMITS[bucket]!) bucket++;
    this.distances[bucket]!++;
    const t = this.trackedAt.get(addr);
    if (t) {
      t.balance -= value;
      this.touched.add(t);
    }
  }

  received(addr: number, value: number): void {
    this.byKind[kindOf(addr)]!++;
    if (addr < COUNTED_IDS) this.outputsPerId[addr]!++;
    const t = this.trackedAt.get(addr);
    if (t) {
      t.balance += value;
      t.received += value;
      this.touched.add(t);
    }
  }

  tx(inputs: number, outputs: number, opReturn: boolean, payout: boolean, witness: boolean): void {
    this.txs++;
    this.inputs += inputs;
    this.outputs += outputs + (opReturn ? 1 : 0);
    if (opReturn) this.opReturns++;
    if (payout) this.payouts++;
    if (witness) this.witnessTxs++;
    this.endTx();
  }

  coinbase(): void {
    this.txs++;
    this.inputs++;
    this.outputs += 2;
    this.endTx();
  }

  private endTx(): void {
    for (const t of this.touched) {
      t.txs++;
      this.touchedInBlock.add(t);
    }
    this.touched.clear();
  }

  block(height: number, bytes: number, addresses: number, liveOutputs: number): void {
    if (height === 0) {
      // Genesis: one coinbase, its output unspendable.
      this.txs++;
      this.inputs++;
      this.outputs++;
    }
    this.blocks++;
    this.blockBytes += bytes;
    this.addresses = addresses;
    this.liveOutputs = liveOutputs;
    for (const t of this.touchedInBlock) t.history.push([height, t.balance, t.received, t.txs]);
    this.touchedInBlock.clear();
  }

  summary(): StatsSummary {
    const top = [...this.outputsPerId].sort((a, b) => b - a).slice(0, 10);
    const spends = this.ages.reduce((a, b) => a + b, 0) || 1;
    return {
      blocks: this.blocks,
      txs: this.txs,
      inputs: this.inputs,
      outputs: this.outputs,
      meanInputs: round4(this.inputs / this.txs),
      meanOutputs: round4(this.outputs / this.txs),
      opReturnTxs: this.opReturns,
      payouts: this.payouts,
      witnessTxShare: round4(this.witnessTxs / this.txs),
      blockBytes: this.blockBytes,
      addresses: this.addresses,
      liveOutputs: this.liveOutputs,
      spendAges: Object.fromEntries(AGE_BUCKET_NAMES.map((name, i) => [name, round4(this.ages[i]! / spends)])),
      spendDistances: Object.fromEntries(DISTANCE_BUCKET_NAMES.map((name, i) => [name, round4(this.distances[i]! / spends)])),
      outputsByKind: Object.fromEntries(KIND_NAMES.map((name, i) => [name, this.byKind[i]!])),
      topAddressOutputs: top,
      tracked: this.tracked,
    };
  }
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
