/**
 * The statistical shape of the synthetic chain: how many inputs and outputs a transaction has, how old the outputs it
 * spends are, who it pays and what fee rate it uses. Loosely Bitcoin mainnet's (about 2.3 inputs and 2.6 outputs per
 * transaction, most spends of recent outputs with a long tail of very old ones, heavy address reuse with a long tail).
 * All draws come from the one Prng in a fixed order, so a seed gives one chain and a shorter chain is a prefix of a
 * longer one.
 */
import type { Prng } from './prng.js';

/** [cumulative probability, lowest, highest] rows: a draw picks the first row above u, then uniform in its range. */
type RangeTable = readonly (readonly [number, number, number])[];

function drawFromTable(prng: Prng, table: RangeTable): number {
  const u = prng.float();
  for (const [p, lo, hi] of table) if (u < p) return lo === hi ? lo : prng.between(lo, hi);
  const last = table[table.length - 1]!;
  return last[2];
}

/** Inputs per transaction: mostly one or two, a tail of consolidations (mean about 2.3). */
const INPUTS: RangeTable = [
  [0.6, 1, 1],
  [0.82, 2, 2],
  [0.895, 3, 3],
  [0.96, 4, 6],
  [0.995, 7, 20],
  [1, 21, 80],
];

/** Outputs per transaction, payouts aside: payment + change dominates (mean about 2.6 with payouts and OP_RETURNs). */
const OUTPUTS: RangeTable = [
  [0.2, 1, 1],
  [0.89, 2, 2],
  [0.96, 3, 5],
  [0.995, 6, 20],
  [1, 21, 100],
];

export interface ShapeOptions {
  /** Mean transactions per block (about; 5 % of blocks are nearly empty). */
  readonly blockTxs: number;
}

export const DEFAULT_SHAPE: ShapeOptions = { blockTxs: 2000 };

/** Share of transactions that are large payouts (exchange withdrawals, pool payouts). */
export const PAYOUT_SHARE = 1 / 40_000;
export const PAYOUT_OUTPUTS = 5000;
/** Share of transactions carrying an OP_RETURN output. */
export const OP_RETURN_SHARE = 0.025;

export function blockTxCount(prng: Prng, shape: ShapeOptions): number {
  if (prng.float() < 0.05) return prng.between(1, Math.max(1, Math.floor(shape.blockTxs / 10)));
  return Math.max(1, Math.round(shape.blockTxs * (0.55 + 0.9 * prng.float())));
}

export function inputCount(prng: Prng): number {
  return drawFromTable(prng, INPUTS);
}

export function outputCount(prng: Prng): number {
  return drawFromTable(prng, OUTPUTS);
}

/** spendAge's answer for "an old coin wakes up": any unspent output older than OLD_AGE blocks, uniformly. */
export const OLD_STOCK = -1;
export const OLD_AGE = 144;

/**
 * Age in blocks of the output an input spends: same block 8 %, within an hour (1-6 blocks) 32 %, within a day
 * (7-144) 30 %, within a week 12 %, within a month 8 % (log-uniform within each range: most spends are of recent
 * outputs), and 10 % a uniformly drawn unspent output older than a day (OLD_STOCK: old coins wake up in proportion
 * to how many there are, the long tail of very old spends). An age with nothing left is drawn again
 * (ChainGenerator.pickInput), so a young chain, which has no old outputs yet, spends younger ones.
 */
export function spendAge(prng: Prng): number {
  const u = prng.float();
  if (u < 0.08) return 0;
  if (u < 0.4) return Math.floor(prng.logUniform(1, 7));
  if (u < 0.7) return Math.floor(prng.logUniform(7, 145));
  if (u < 0.82) return Math.floor(prng.logUniform(145, 1009));
  if (u < 0.9) return Math.floor(prng.logUniform(1009, 4321));
  return OLD_STOCK;
}

/** Fee rate in sat/vB: log-uniform 1-100 (quiet and busy mempools). */
export function feeRate(prng: Prng): number {
  return prng.logUniform(1, 100);
}

/**
 * Who an output pays (an address id; `nextAddr` itself means a never-seen address): 40 % a new address, 12 % back
 * to the address of the transaction's first input (wallets that reuse their address for change), the rest an
 * existing address drawn with a power law over ids (P(id <= x) = (x/n)^0.4): the oldest ids are the hot ones
 * (exchanges, pools, services), with a long tail of rarely reused ones.
 */
export function chooseAddress(prng: Prng, nextAddr: number, firstInputAddr: number): number {
  const u = prng.float();
  if (u < 0.4 || nextAddr === 0) return nextAddr;
  if (u < 0.52 && firstInputAddr >= 0) return firstInputAddr;
  return Math.min(nextAddr - 1, Math.floor(nextAddr * prng.float() ** 2.5));
}

/** Satoshis per unit of a block subsidy: 50 coins halving every 210,000 blocks, as on mainnet. */
export function subsidy(height: number): number {
  const halvings = Math.floor(height / 210_000);
  return halvings >= 33 ? 0 : Math.floor(5_000_000_000 / 2 ** halvings);
}

export const DUST = 546;
