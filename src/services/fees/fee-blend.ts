/**
 * How the fee levels are derived (docs/wallets.md, "Fees"), as pure arithmetic: the mempool projection's entry rate
 * within each target is a floor (a tx paying less does not enter the projected blocks in time unless blocks come
 * faster or the mempool empties), the node's estimate carries what the projection cannot see (txs still to arrive)
 * but lags the mempool by hours, so it lifts a level half way towards it and never lowers one. Then every level is
 * at least the minimum and at most the level before it.
 */
import { FEE_LEVELS, type FeeLevel } from './fee-targets.js';

export interface FeeRates {
  readonly fastest: number;
  readonly halfHour: number;
  readonly hour: number;
  readonly economy: number;
  /** What enters the node's mempool at all: its relay fee, or its mempool minimum when that is higher. */
  readonly minimum: number;
}

/** What the projection says a tx needs to be in one of the next `target` blocks (base units per vbyte). */
export function projectedRate(projection: { readonly entryRates: readonly number[]; readonly minFeeRate: number }, target: number): number {
  if (target > projection.entryRates.length) return projection.minFeeRate;
  let rate = Infinity;
  for (let i = 0; i < target; i++) rate = Math.min(rate, projection.entryRates[i]!);
  return rate;
}

/** Up to 2 decimals, never below the exact figure (a rate rounded down could miss the block it aims at). */
export function roundUp(rate: number): number {
  return Math.ceil(rate * 100 - 1e-9) / 100;
}

export function blendRates(projected: Readonly<Record<FeeLevel, number>>, node: Readonly<Record<FeeLevel, number | null>>, minimum: number): FeeRates {
  const level = (l: FeeLevel): number => {
    const p = projected[l];
    const n = node[l];
    return n === null ? p : Math.max(p, (p + n) / 2);
  };
  const rates = { fastest: 0, halfHour: 0, hour: 0, economy: 0 };
  // From the slowest up: each level at least the minimum and at least the level after it.
  let floor = minimum;
  for (const l of [...FEE_LEVELS].reverse()) {
    floor = Math.max(floor, level(l));
    rates[l] = floor;
  }
  return {
    fastest: roundUp(rates.fastest),
    halfHour: roundUp(rates.halfHour),
    hour: roundUp(rates.hour),
    economy: roundUp(rates.economy),
    minimum: roundUp(minimum),
  };
}
