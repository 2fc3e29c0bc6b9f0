import type { Block, ChainSource } from '../core/index.js';
import type { ChainFeatures } from '../chains/network-params.js';
import { parseBlock, peekBlock } from '../chains/parsing.js';

export interface FetchedBatch {
  readonly fromHeight: number;
  /** Parsed blocks; empty when the fetcher was told not to parse (the raw blocks are parsed elsewhere). */
  readonly blocks: readonly Block[];
  /** The raw blocks, in height order. */
  readonly raws: readonly Uint8Array[];
  /** Transactions in the batch. */
  readonly txCount: number;
  readonly bytes: number;
}

export interface BlockFetcherOptions {
  /** Transactions per batch (one store transaction). */
  readonly targetTxs?: number;
  /** Raw bytes per batch: bounds memory when blocks are large. Default 64 MB. */
  readonly targetBytes?: number;
  readonly maxBlocks?: number;
  /**
   * getblock requests issued at once (once a first answer has calibrated the block-size estimate; one before).
   * Default 4, the RPC client's connections: the node serves four while the store's synchronous write blocks
   * our event loop (three left it a connection idle). Each request over the estimate can overshoot a batch's
   * bounds by up to 32 blocks and a prefetched batch is held next to the one being written, so this stays
   * small: 6 and 8 were not measurably faster here and cost 100-150 MiB of peak RSS.
   */
  readonly parallel?: number;
  /** Transactions per getblock request. Default 1000. */
  readonly requestTxs?: number;
  /**
   * Parse the blocks (default true). False: only their headers and tx counts are read (peekBlock) and the batch
   * carries the raw bytes, for a loader that parses them on another thread.
   */
  readonly parse?: boolean;
}

/** Blocks per getblock request at most: block sizes may jump, a request must stay small. */
const MAX_REQUEST_BLOCKS = 32;

/**
 * Fetches and parses consecutive main-chain blocks. Batches adapt to block size so a batch holds
 * about `targetTxs` transactions: large enough to amortise round trips and commits during initial
 * sync, a single block when following the tip. Blocks travel in several smaller getblock requests,
 * several in flight so the node serves a prefetched batch while the store writes the previous one, and
 * the batch stops as soon as it holds enough transactions or bytes (requests count as their predicted
 * size until they arrive): a run of small blocks followed by large ones never produces one huge batch
 * (memory stays bounded whatever the chain length).
 */
export class BlockFetcher {
  private perBlockTxs = 1;
  private perBlockBytes = 300;
  /** True once an answer has replaced the initial guesses above. */
  private calibrated = false;
  private readonly targetTxs: number;
  private readonly targetBytes: number;
  private readonly maxBlocks: number;
  private readonly parallel: number;
  private readonly requestTxs: number;
  private readonly parse: boolean;

  constructor(
    private readonly source: ChainSource,
    private readonly features: ChainFeatures,
    options: BlockFetcherOptions = {},
  ) {
    this.targetTxs = options.targetTxs ?? 20_000;
    this.targetBytes = options.targetBytes ?? 64 * 1024 * 1024;
    this.maxBlocks = options.maxBlocks ?? 500;
    this.parallel = options.parallel ?? 4;
    this.requestTxs = options.requestTxs ?? 1000;
    this.parse = options.parse ?? true;
  }

  /** How many heights to ask for next (an upper bound: the batch may stop earlier). */
  nextCount(remaining: number): number {
    const byTxs = Math.ceil(this.targetTxs / this.perBlockTxs);
    const byBytes = Math.ceil(this.targetBytes / this.perBlockBytes);
    return Math.max(1, Math.min(remaining, byTxs, byBytes, this.maxBlocks));
  }

  async fetch(fromHeight: number, count: number): Promise<FetchedBatch> {
    const hashes = await this.source.getBlockHashes(fromHeight, count);
    const blocks: Block[] = [];
    const allRaws: Uint8Array[] = [];
    let txs = 0;
    let bytes = 0;
    let next = 0;
    // Requests in flight, in height order; each resolves to its raw blocks.
    const inFlight: { start: number; raws: Promise<Uint8Array[]> }[] = [];
    const issue = (): void => {
      while (inFlight.length < (this.calibrated ? this.parallel : 1) && next < hashes.length && !this.full(txs, bytes, next - allRaws.length)) {
        const perRequest = Math.max(1, Math.min(MAX_REQUEST_BLOCKS, Math.round(this.requestTxs / this.perBlockTxs)));
        const start = next;
        next = Math.min(hashes.length, next + perRequest);
        const raws = this.source.getRawBlocks(hashes.slice(start, next));
        raws.catch(() => undefined); // awaited below in order; an abandoned one must not be unhandled
        inFlight.push({ start, raws });
      }
    };
    issue();
    while (inFlight.length > 0) {
      const { start, raws } = inFlight.shift()!;
      const fetched = await raws;
      let chunkTxs = 0;
      let chunkBytes = 0;
      fetched.forEach((raw, i) => {
        const block = this.parse ? parseBlock(raw, this.features) : null;
        const { hash, txCount } = block ? { hash: block.header.hash, txCount: block.txs.length } : peekBlock(raw, this.features);
        const expected = hashes[start + i];
        if (hash !== expected) throw new Error(`node returned block ${hash} for hash ${expected}`);
        chunkTxs += txCount;
        chunkBytes += raw.length;
        if (block) blocks.push(block);
        allRaws.push(raw);
      });
      txs += chunkTxs;
      bytes += chunkBytes;
      // The latest blocks predict the next ones best (block sizes drift along a chain), but one small block (an
      // empty one a pool mined) must not make the next batch ask for a hundred full ones: with a 39-tx block among
      // ~1,800-tx ones the next batch held 94 blocks, 172k txs against a 20k target, and the event log's backlog of
      // them took the service over 2 GiB (docs/benchmarks.md). So the estimate falls by at most half per answer.
      const halved = this.calibrated ? 0.5 : 0;
      this.perBlockTxs = Math.max(chunkTxs / fetched.length, this.perBlockTxs * halved, 1);
      this.perBlockBytes = Math.max(chunkBytes / fetched.length, this.perBlockBytes * halved, 80);
      this.calibrated = true;
      issue();
    }
    return { fromHeight, blocks, raws: allRaws, txCount: txs, bytes };
  }

  /** Enough fetched (or expected from the requests in flight) for one batch. */
  private full(txs: number, bytes: number, expectedBlocks: number): boolean {
    return txs + expectedBlocks * this.perBlockTxs >= this.targetTxs || bytes + expectedBlocks * this.perBlockBytes >= this.targetBytes;
  }
}
