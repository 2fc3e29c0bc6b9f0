/**
 * Fee rate estimates per network (docs/wallets.md, "Fees"): the mempool projection (the projector's, recomputed as
 * the mempool changes) blended with the node's `estimatesmartfee` where the node answers and its coin's estimates
 * are trusted, falling back to the projection and the relay fee. Domain values; the v3 route and the explorer present them.
 */
import type { FeeEstimateSource, NodeFeeEstimates } from '../../core/sources/fee-source.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkId } from '../../core/domain/network.js';
import { feeRateUnit } from '../../chains/networks.js';
import type { MempoolProjector } from '../network/mempool-projector.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { blendRates, projectedRate, type FeeRates } from './fee-blend.js';
import { FEE_LEVELS, feeTargets, type FeeLevel } from './fee-targets.js';

/** The node's estimates change with blocks: asked again after a new tip, or after this long at most. */
const NODE_ESTIMATES_MAX_AGE_MS = 60_000;

export interface FeeEstimates {
  readonly network: NetworkContext;
  /** Base units per virtual byte, e.g. "sat/vB". */
  readonly unit: string;
  readonly rates: FeeRates;
  /** The confirmation target of each level, in blocks. */
  readonly targets: Readonly<Record<FeeLevel, number>>;
  /** UNIX seconds of the mempool snapshot the projection came from. */
  readonly updatedAt: number;
  /** Whether the node's own estimates took part (false: projection and relay fee only). */
  readonly nodeEstimates: boolean;
}

interface CachedNode {
  readonly tip: string;
  readonly atMs: number;
  readonly value: NodeFeeEstimates | null;
}

export class FeeService {
  private readonly cached = new Map<NetworkId, CachedNode>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly projector: MempoolProjector,
    private readonly sources: ReadonlyMap<NetworkId, FeeEstimateSource>,
    private readonly logger: Logger,
  ) {}

  async estimates(network: string): Promise<FeeEstimates> {
    const ctx = this.networks.resolve(network);
    const targets = feeTargets(ctx.params);
    const [projection, node] = await Promise.all([this.projector.current(ctx, { deep: true }), this.nodeEstimates(ctx, targets)]);
    const trusted = node !== null && node.nodeVersion >= ctx.params.smartFeeFromVersion;
    const projected = {} as Record<FeeLevel, number>;
    const fromNode = {} as Record<FeeLevel, number | null>;
    for (const level of FEE_LEVELS) {
      projected[level] = projectedRate(projection, targets[level]);
      const answer = trusted ? node.estimates.find((e) => e.target === targets[level]) : undefined;
      // Core answers target 1 for 2 blocks (its shortest); an answer for a longer horizon than asked would be too low.
      const usable = answer && answer.rate !== null && (answer.answeredFor === null || answer.answeredFor <= Math.max(2, answer.target));
      fromNode[level] = usable ? answer.rate : null;
    }
    const minimum = Math.max(projection.minFeeRate, node?.relayFeeRate ?? 0);
    return {
      network: ctx,
      unit: feeRateUnit(ctx.params.coin),
      rates: blendRates(projected, fromNode, minimum),
      targets,
      updatedAt: projection.updatedAt,
      nodeEstimates: FEE_LEVELS.some((l) => fromNode[l] !== null),
    };
  }

  /** The node's answer for this tip (cached); null without a node source or while it does not answer. */
  private async nodeEstimates(ctx: NetworkContext, targets: Record<FeeLevel, number>): Promise<NodeFeeEstimates | null> {
    const source = this.sources.get(ctx.id);
    if (!source) return null;
    const tip = (await ctx.reader.getTip())?.hash ?? '';
    const cached = this.cached.get(ctx.id);
    if (cached && cached.tip === tip && Date.now() - cached.atMs < NODE_ESTIMATES_MAX_AGE_MS) return cached.value;
    let value: NodeFeeEstimates | null = null;
    try {
      value = await source.estimates([...new Set(FEE_LEVELS.map((l) => targets[l]))]);
    } catch (error) {
      // The projection still answers: estimates without the node's part rather than none.
      this.logger.warn('fee estimates: node estimates unavailable', { network: ctx.id, error: (error as Error).message });
    }
    this.cached.set(ctx.id, { tip, atMs: Date.now(), value });
    return value;
  }
}
