import type { NetworkId } from '../../core/domain/network.js';
import type { MempoolPackage, MempoolPackageSource } from '../../core/sources/mempool-package-source.js';
import type { NetworkRegistry } from '../shared/network-registry.js';

/** A mempool tx's fee rate as mining sees it (CPFP): base units per vbyte, 2 decimals as the projection's. */
export interface EffectiveFeeRate {
  /** Its own fee over its own vsize. */
  readonly own: number;
  /** With its unconfirmed ancestors (what mining scores it by). */
  readonly withAncestors: number;
  /** With its descendants (children paying for it). */
  readonly withDescendants: number;
  /**
   * The rate it is mined at: with its ancestors, raised to its descendants' package where children pay more (a
   * child's package carries its parent into the block at the child's rate).
   */
  readonly effective: number;
  readonly ancestors: number;
  readonly descendants: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const rate = (fee: bigint, vsize: number): number => (vsize > 0 ? round2(Number(fee) / vsize) : 0);

export function effectiveFeeRate(p: MempoolPackage): EffectiveFeeRate {
  const withAncestors = rate(p.ancestorFee, p.ancestorSize);
  const withDescendants = rate(p.descendantFee, p.descendantSize);
  return {
    own: rate(p.fee, p.vsize),
    withAncestors,
    withDescendants,
    effective: p.descendantCount > 1 ? Math.max(withAncestors, withDescendants) : withAncestors,
    ancestors: p.ancestorCount - 1,
    descendants: p.descendantCount - 1,
  };
}

/** A page render waits at most this long for the node; without an answer the page shows the tx's own rate. */
const NODE_WAIT_MS = 1_500;
/** Answers are reused this long: a busy tx page is not one node call per view. */
const CACHE_MS = 5_000;
const CACHE_ENTRIES = 1_000;

/**
 * Effective (CPFP) fee rates of mempool txs from the node's `getmempoolentry`, read when a tx page is rendered,
 * bounded in time (NODE_WAIT_MS) and cached briefly per tx (CACHE_MS, at most CACHE_ENTRIES).
 */
export class EffectiveFeeRateService {
  private readonly cache = new Map<string, { readonly atMs: number; readonly value: Promise<EffectiveFeeRate | null> }>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly sources: ReadonlyMap<NetworkId, MempoolPackageSource>,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** null without a node source, when the node does not hold the tx, or when it did not answer in time. */
  rateOf(network: string, txid: string): Promise<EffectiveFeeRate | null> {
    const ctx = this.networks.resolve(network);
    const source = this.sources.get(ctx.id);
    if (!source) return Promise.resolve(null);
    const key = `${ctx.id}:${txid}`;
    const hit = this.cache.get(key);
    if (hit && this.nowMs() - hit.atMs < CACHE_MS) return hit.value;
    let timer: NodeJS.Timeout | undefined;
    const value = Promise.race([
      source.packageOf(txid).then((p) => (p ? effectiveFeeRate(p) : null)),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), NODE_WAIT_MS))),
    ]).catch(() => null).finally(() => clearTimeout(timer));
    this.cache.delete(key);
    this.cache.set(key, { atMs: this.nowMs(), value });
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }
}
