/**
 * The confirmation targets of the fee levels, from the network's block interval: 30 minutes are 3 Bitcoin blocks,
 * 12 Litecoin blocks, 30 Dogecoin blocks. No target passes what `estimatesmartfee` accepts (1,008 blocks in Bitcoin
 * Core), which also bounds how deep the mempool projection is followed.
 */
import type { NetworkParams } from '../../chains/network-params.js';
import { PROJECTION_DEPTH } from '../network/mempool-projector.js';

/** No target beyond what the projection follows (also the longest `estimatesmartfee` takes). */
export const MAX_FEE_TARGET = PROJECTION_DEPTH;

export type FeeLevel = 'fastest' | 'halfHour' | 'hour' | 'economy';
export const FEE_LEVELS: readonly FeeLevel[] = ['fastest', 'halfHour', 'hour', 'economy'];

/** Seconds each level aims at; `fastest` is the next block whatever the interval. */
const HORIZON: Record<Exclude<FeeLevel, 'fastest'>, number> = { halfHour: 30 * 60, hour: 60 * 60, economy: 24 * 60 * 60 };

export function feeTargets(params: NetworkParams): Record<FeeLevel, number> {
  const blocks = (seconds: number): number => Math.min(MAX_FEE_TARGET, Math.max(1, Math.ceil(seconds / params.targetSpacing)));
  return { fastest: 1, halfHour: blocks(HORIZON.halfHour), hour: blocks(HORIZON.hour), economy: blocks(HORIZON.economy) };
}
