import { blockMiner, difficultyFromBits, parseTransaction, type BlockMiner } from '../../chains/parsing.js';
import { NotFoundError, RawTxUnavailableError } from '../../core/domain/errors.js';
import type { BlockRecord, TxRecord } from '../../core/store/chain-reads.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import { rawTxsOf } from '../transactions/raw-tx-reader.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import { projectMempoolBlocks } from './projection/mempool-projection.js';
import { estimateHashrate } from './hashrate.js';
import { PROJECTED_BLOCKS, type MempoolProjection, type MempoolProjector } from './mempool-projector.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** latest_blocks_summary (docs/api-v3.md): the last 10 blocks. */
export const SUMMARY_BLOCKS = 10;

export interface BlockSummary {
  readonly block: BlockRecord;
  /** From the coinbase by chains' blockMiner, the rule realtime's mined_by uses too; null when the coinbase is not stored. */
  readonly miner: BlockMiner | null;
  readonly difficulty: number;
}

export interface NetworkStatus {
  readonly network: NetworkContext;
  /** While syncing: the index height and an empty hash (no block can be queried yet). */
  readonly tip: ChainTip;
  readonly hashrate: bigint;
  readonly mempool: MempoolProjection;
  /** Null when the network answers chain queries; else its initial-sync status (hash rate and mempool are then empty). */
  readonly syncing: SyncStatus | null;
}

/** v3 chain-level reads: the tip, the latest blocks with their miners, and the network status with the mempool projection. */
export class ChainSummaryService {
  /** Per network, the hash rate of the current tip (it reads ~120 blocks) and the summaries of the latest blocks. */
  private readonly hashrates = new Map<string, { tip: string; value: bigint }>();
  private readonly summaries = new Map<string, { tip: string; value: BlockSummary[] }>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly projector: MempoolProjector,
  ) {}

  async tip(network: string): Promise<{ network: NetworkContext; tip: ChainTip }> {
    const ctx = this.networks.resolve(network);
    const tip = await ctx.reader.getTip();
    if (!tip) throw new NotFoundError('network', `no block of ${ctx.id} is indexed yet`);
    return { network: ctx, tip };
  }

  private tipOr(network: string, at: ChainTip | undefined): Promise<{ network: NetworkContext; tip: ChainTip }> {
    return at ? Promise.resolve({ network: this.networks.resolve(network), tip: at }) : this.tip(network);
  }

  /** Newest first; cached until the tip moves. `at`: a tip the caller has just read (saves reading it again). */
  async latestBlocks(network: string, at?: ChainTip): Promise<{ network: NetworkContext; blocks: readonly BlockSummary[] }> {
    const { network: ctx, tip } = await this.tipOr(network, at);
    const key = ctx.id;
    const cached = this.summaries.get(key);
    if (cached?.tip === tip.hash) return { network: ctx, blocks: cached.value };
    const { blocks, complete } = await this.summarise(ctx, tip.height, SUMMARY_BLOCKS);
    if (complete) this.summaries.set(key, { tip: tip.hash, value: blocks });
    return { network: ctx, blocks };
  }

  /** Main-chain blocks from `top` down, `count` of them at most (fewer near the genesis or above the tip), with their miners. */
  async blocksDown(network: string, top: number, count: number): Promise<{ network: NetworkContext; tip: ChainTip; blocks: readonly BlockSummary[] }> {
    const { network: ctx, tip } = await this.tip(network);
    return { network: ctx, tip, blocks: (await this.summarise(ctx, Math.min(top, tip.height), count)).blocks };
  }

  /** `complete`: every miner that the coinbases name is known (false while the node keeping raw txs is down). */
  private async summarise(ctx: NetworkContext, top: number, count: number): Promise<{ blocks: BlockSummary[]; complete: boolean }> {
    const heights = Array.from({ length: Math.max(0, Math.min(count, top + 1)) }, (_, i) => top - i);
    const blocks = (await Promise.all(heights.map((h) => ctx.reader.getBlockByHeight(h)))).filter((b): b is BlockRecord => b !== null);
    const coinbases = await Promise.all(blocks.map((b) => (b.txids[0] ? ctx.reader.getTransaction(b.txids[0]) : Promise.resolve(null))));
    const raws = await this.coinbaseRaws(ctx, coinbases);
    const summaries = blocks.map((block, i) => {
      const raw = raws?.[i];
      const miner = raw ? blockMiner(ctx.params, parseTransaction(raw, { mweb: ctx.params.features.mweb })) : null;
      return { block, miner, difficulty: difficultyFromBits(block.bits) };
    });
    return { blocks: summaries, complete: raws !== null };
  }

  /**
   * The coinbases' raw bytes for the miners; null while a node keeping them (raw_txs = "node") cannot give them: the
   * summaries then name no miners ("if determinable") rather than failing, and are not cached.
   */
  private async coinbaseRaws(ctx: NetworkContext, coinbases: readonly (TxRecord | null)[]): Promise<(Uint8Array | undefined)[] | null> {
    const known = coinbases.filter((r): r is TxRecord => r !== null);
    try {
      const raws = new Map((await rawTxsOf(ctx, known)).map((raw, i) => [known[i]!.txid, raw] as const));
      return coinbases.map((r) => (r ? raws.get(r.txid) : undefined));
    } catch (error) {
      if (error instanceof RawTxUnavailableError) return null;
      throw error;
    }
  }

  async status(network: string, at?: ChainTip): Promise<NetworkStatus> {
    const resolved = this.networks.resolve(network);
    const syncing = await this.networks.syncing(resolved.id);
    if (syncing) {
      // Still six projected blocks, empty: the array always has six items (docs/api-v3.md).
      const blocks = projectMempoolBlocks([], { maxBlockWeight: resolved.params.maxBlockWeight, blocks: PROJECTED_BLOCKS, minFeeRate: 0 });
      const mempool = { txCount: 0, bytes: 0, updatedAt: syncing.updatedAt, blocks, minFeeRate: 0, entryRates: [], deep: false, newest: [], feeHistogram: [] };
      return { network: resolved, tip: { height: syncing.height ?? 0, hash: '' }, hashrate: 0n, mempool, syncing };
    }
    const { network: ctx, tip } = await this.tipOr(network, at);
    const cached = this.hashrates.get(ctx.id);
    const hashrate = cached?.tip === tip.hash ? cached.value : await estimateHashrate(ctx.reader, tip);
    this.hashrates.set(ctx.id, { tip: tip.hash, value: hashrate });
    return { network: ctx, tip, hashrate, mempool: await this.projector.current(ctx), syncing: null };
  }
}
