import type { MempoolTxSummary } from '../core/store.js';
import type { NetworkContext, NetworkRegistry } from './network-registry.js';

export interface NewestMempool {
  readonly network: NetworkContext;
  /** Live mempool txs in total. */
  readonly count: number;
  /** Newest first (by the time the indexer first saw them). */
  readonly txs: readonly MempoolTxSummary[];
}

/** How long one read of the mempool serves every request (the explorer's mempool page reads the whole list). */
const MAX_AGE_MS = 2_000;

/** The newest unconfirmed txs of a network: one store read per network per two seconds, shared by concurrent requests. */
export class MempoolListService {
  private readonly cache = new Map<string, { at: number; read: Promise<MempoolTxSummary[]> }>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async newest(network: string, limit: number): Promise<NewestMempool> {
    const ctx = this.networks.resolve(network);
    let entry = this.cache.get(ctx.id);
    if (!entry || this.nowMs() - entry.at > MAX_AGE_MS) {
      const read = ctx.reader.getMempoolEntries().then((txs) => txs.sort((a, b) => b.seenAt - a.seenAt || (a.txid < b.txid ? -1 : 1)));
      entry = { at: this.nowMs(), read };
      this.cache.set(ctx.id, entry);
      read.catch(() => this.cache.delete(ctx.id));
    }
    const sorted = await entry.read;
    return { network: ctx, count: sorted.length, txs: sorted.slice(0, limit) };
  }
}
