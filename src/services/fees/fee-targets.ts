/**
 * The confirmation targets of the fee levels, from the network's block interval: 30 minutes are 3 Bitcoin blocks,
 * 12 Litecoin blocks, 30 Dogecoin blocks. `economy` is a day, as deep as the projector follows the mempool for fees
 * (projectionDepth: at most 1,008 blocks, the longest target `estimatesmartfee` takes).
 */
import type { NetworkParams } from '../../chains/network-params.js';
import { MAX_PROJECTION_DEPTH, projectionDepth } from '../network/mempool-projector.js';

export type FeeLevel = 'fastest' | 'halfHour' | 'hour' | 'economy';
export const FEE_LEVELS: readonly FeeLevel[] = ['fastest', 'halfHour', 'hour', 'economy'];

export function feeTargets(params: NetworkParams): Record<FeeLevel, number> {
  const blocks = (seconds: number): number => Math.min(MAX_PROJECTION_DEPTH, Math.max(1, Math.ceil(seconds / params.targetSpacing)));
  return { fastest: 1, halfHour: blocks(30 * 60), hour: blocks(60 * 60), economy: projectionDepth(params) };
}
