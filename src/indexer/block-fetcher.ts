import type { Block, ChainSource } from '../core/index.js';
import type { ChainFeatures } from '../chains/network-params.js';
import { parseBlock } from '../chains/parsing.js';

export interface FetchedBatch {
  readonly fromHeight: number;
  readonly blocks: readonly Block[];
  readonly bytes: number;
}

/**
 * Fetches and parses consecutive main-chain blocks. Batches adapt to block size so a batch holds
 * about `targetTxs` transactions: large enough to amortise round trips and commits during initial
 * sync, a single block when following the tip.
 */
export class BlockFetcher {
  private blocksPerBatch = 16;

  constructor(
    private readonly source: ChainSource,
    private readonly features: ChainFeatures,
    private readonly targetTxs = 4000,
    private readonly maxBlocks = 500,
  ) {}

  nextCount(remaining: number): number {
    return Math.max(1, Math.min(remaining, this.blocksPerBatch, this.maxBlocks));
  }

  async fetch(fromHeight: number, count: number): Promise<FetchedBatch> {
    const hashes = await this.source.getBlockHashes(fromHeight, count);
    const raws = await this.source.getRawBlocks(hashes);
    let txs = 0;
    let bytes = 0;
    const blocks = raws.map((raw, i) => {
      const block = parseBlock(raw, this.features);
      if (block.header.hash !== hashes[i]) {
        throw new Error(`node returned block ${block.header.hash} for hash ${hashes[i]}`);
      }
      txs += block.txs.length;
      bytes += raw.length;
      return block;
    });
    const perBlock = Math.max(txs / Math.max(blocks.length, 1), 1);
    this.blocksPerBatch = Math.max(1, Math.min(this.maxBlocks, Math.round(this.targetTxs / perBlock)));
    return { fromHeight, blocks, bytes };
  }
}
