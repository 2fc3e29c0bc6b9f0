/**
 * Raw transactions from the node, for stores that do not keep them (`[store] raw_txs = "node"`). A tx is asked for by
 * txid with `getrawtransaction` when the node has a synced -txindex (batched: one HTTP request for a page), else cut out
 * of its block (`getblock <hash> false`: the boolean form Dogecoin Core 1.14 also takes) at the position the index
 * knows. Concurrent asks for one block share one getblock. What was fetched stays in a bytes-bounded LRU cache:
 * - "hot" txs: each tx asked for (a payment polled, an address's unspent outputs paged through again);
 * - "recent" blocks: the txs of blocks just fetched or just connected by the indexer (`remember`), which is where
 *   most asks go (new payments, their unspent outputs, the explorer's latest blocks), served from one entry per block.
 */
import { parseBlock } from '../chains/parsing.js';
import type { ChainFeatures } from '../chains/network-params.js';
import { RawTxUnavailableError, RpcError, RpcUnavailableError } from '../core/domain/errors.js';
import type { RawTxLocation, RawTxSource } from '../core/sources/raw-txs.js';
import { ByteLru } from './byte-lru.js';
import type { NodeClient } from './rpc/node-client.js';

/** Core's RPC_METHOD_NOT_FOUND: Dogecoin Core 1.14 has no getindexinfo (and no -txindex status call). */
const RPC_METHOD_NOT_FOUND = -32601;
/** A node's -txindex can be switched on (restart) or finish syncing: asked again after this long. */
const TXINDEX_RECHECK_MS = 10 * 60_000;

export interface NodeRawTxSourceOptions {
  readonly network: string;
  readonly features: ChainFeatures;
  /** The cache's budget (default 64 MiB). */
  readonly cacheBytes?: number;
  /** Retry-After while the node cannot be reached (default 10 s). */
  readonly retryAfterSeconds?: number;
  readonly now?: () => number;
}

type Block = readonly { readonly txid: string; readonly raw: Uint8Array }[];
/** What a cached tx costs besides its bytes (the entry, its txid string): keeps the budget honest for small txs. */
const ENTRY_OVERHEAD = 120;

export class NodeRawTxSource implements RawTxSource {
  private readonly cache: ByteLru<Uint8Array | Block>;
  private readonly inFlight = new Map<string, Promise<Block>>();
  private txindex: { value: boolean; at: number } | null = null;
  private readonly now: () => number;
  /** Node requests made (getrawtransaction batches and getblocks): benchmarks and tests read it. */
  requests = 0;

  constructor(private readonly node: NodeClient, private readonly options: NodeRawTxSourceOptions) {
    this.cache = new ByteLru(options.cacheBytes ?? 64 * 1024 * 1024);
    this.now = options.now ?? Date.now;
  }

  async rawTxs(locations: readonly RawTxLocation[]): Promise<Uint8Array[]> {
    const out: (Uint8Array | undefined)[] = locations.map((l) => this.cached(l));
    try {
      let missing = locations.flatMap((l, i) => (out[i] ? [] : [i]));
      if (missing.length > 0 && (await this.hasTxindex())) {
        this.requests++;
        const found = await this.node.getRawTransactions(missing.map((i) => locations[i]!.txid));
        missing.forEach((i, j) => (out[i] = this.keep(locations[i]!.txid, found[j] ?? undefined)));
        missing = missing.filter((i) => !out[i]);
      }
      const byBlock = new Map<string, number[]>();
      for (const i of missing) byBlock.set(locations[i]!.blockHash, [...(byBlock.get(locations[i]!.blockHash) ?? []), i]);
      await Promise.all([...byBlock].map(async ([hash, indexes]) => {
        const txs = await this.block(hash);
        for (const i of indexes) out[i] = this.keep(locations[i]!.txid, cut(txs, locations[i]!));
      }));
    } catch (error) {
      throw this.unavailable(error);
    }
    return out.map((raw, i) => raw ?? this.mismatch(locations[i]!));
  }

  remember(blockHash: string, txs: Block): void {
    this.cache.set(`b:${blockHash}`, txs, txs.reduce((n, t) => n + t.raw.length + ENTRY_OVERHEAD, 0));
  }

  private cached(l: RawTxLocation): Uint8Array | undefined {
    const tx = this.cache.get(`t:${l.txid}`) as Uint8Array | undefined;
    if (tx) return tx;
    const block = this.cache.get(`b:${l.blockHash}`) as Block | undefined;
    return block ? cut(block, l) : undefined;
  }

  /** Copies the bytes (a view of a whole block would keep the block alive) into the cache as a hot tx. */
  private keep(txid: string, raw: Uint8Array | undefined): Uint8Array | undefined {
    if (!raw) return undefined;
    const copy = Uint8Array.prototype.slice.call(raw);
    this.cache.set(`t:${txid}`, copy, copy.length + ENTRY_OVERHEAD);
    return copy;
  }

  /** The block's txs in order: from the cache, or one getblock shared by every concurrent ask. */
  private block(hash: string): Promise<Block> {
    const cached = this.cache.get(`b:${hash}`) as Block | undefined;
    if (cached) return Promise.resolve(cached);
    let pending = this.inFlight.get(hash);
    if (!pending) {
      this.requests++;
      pending = this.node.getRawBlock(hash).then((bytes) => {
        const txs = parseBlock(bytes, this.options.features).txs.map((t) => ({ txid: t.txid, raw: t.raw }));
        this.remember(hash, txs);
        return txs;
      }).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, pending);
    }
    return pending;
  }

  /** A synced -txindex (getindexinfo, Core 0.21+); a node without the call (Dogecoin Core 1.14) is read by block. */
  private async hasTxindex(): Promise<boolean> {
    if (this.txindex && this.now() - this.txindex.at < TXINDEX_RECHECK_MS) return this.txindex.value;
    let value = false;
    try {
      const info = await this.node.rpc.call<{ txindex?: { synced?: boolean } }>('getindexinfo');
      value = info.txindex?.synced === true;
    } catch (error) {
      if (!(error instanceof RpcError && error.rpcCode === RPC_METHOD_NOT_FOUND)) throw error;
    }
    this.txindex = { value, at: this.now() };
    return value;
  }

  private unavailable(error: unknown): Error {
    const retry = this.options.retryAfterSeconds ?? 10;
    if (error instanceof RpcUnavailableError) {
      return new RawTxUnavailableError(`the ${this.options.network} node that keeps raw transactions cannot be reached`, retry, { cause: error });
    }
    if (error instanceof RpcError) {
      // Unknown or pruned block: the node cannot give these bytes until an operator acts; ask clients to come back later.
      return new RawTxUnavailableError(`the ${this.options.network} node cannot give a raw transaction: ${error.message}`, 60, { cause: error });
    }
    return error as Error;
  }

  private mismatch(l: RawTxLocation): never {
    throw new RawTxUnavailableError(`the ${this.options.network} node has no tx at position ${l.position} of block ${l.blockHash}`, 60);
  }
}

/** The tx at the location's position, if it is the txid asked for (else the index and the node disagree: undefined). */
function cut(block: Block, l: RawTxLocation): Uint8Array | undefined {
  const tx = block[l.position];
  return tx?.txid === l.txid ? tx.raw : undefined;
}
