import type { MempoolTxSummary } from '../../core/store/chain-reads.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

export interface NewestMempool {
  readonly network: NetworkContext;
  /** Live mempool txs in total. */
  readonly count: number;
  /** Newest first (by the time the indexer first saw them). */
  readonly txs: readonly MempoolTxSummary[];
}

/** Longest time one read of the whole mempool serves requests while the mempool's count and bytes stay the same. */
const MAX_AGE_MS = 2_000;

interface Snapshot {
  readonly at: number;
  readonly count: number;
  readonly bytes: number;
  readonly sorted: Promise<MempoolTxSummary[]>;
}

/**
 * The newest unconfirmed txs of a network. Reading the whole mempool list is the expensive part, so it is shared
 * by requests while the mempool's size (one aggregate read) is unchanged, for at most two seconds.
 */
export class MempoolListService {
  private readonly snapshots = new Map<string, Snapshot>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async newest(network: string, limit: number): Promise<NewestMempool> {
    const ctx = this.networks.resolve(network);
    const info = await ctx.reader.getMempoolInfo();
    let snapshot = this.snapshots.get(ctx.id);
    if (!snapshot || snapshot.count !== info.count || snapshot.bytes !== info.bytes || this.nowMs() - snapshot.at > MAX_AGE_MS) {
      const sorted = ctx.reader.getMempoolEntries().then((txs) => txs.sort((a, b) => b.seenAt - a.seenAt || (a.txid < b.txid ? -1 : 1)));
      snapshot = { at: this.nowMs(), count: info.count, bytes: info.bytes, sorted };
      const current = snapshot;
      this.snapshots.set(ctx.id, current);
      sorted.catch(() => this.snapshots.get(ctx.id) === current && this.snapshots.delete(ctx.id));
    }
    const sorted = await snapshot.sorted;
    return { network: ctx, count: sorted.length, txs: sorted.slice(0, limit) };
  }
}
