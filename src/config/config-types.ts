import type { ChainKind, MarketSettings, NetworkId } from '../core/index.js';

export interface NetworkConfig {
  readonly id: NetworkId;
  readonly chain: ChainKind;
  readonly rpcUrl: string;
  readonly rpcCookie: string | null;
  readonly zmqUrl: string | null;
  readonly pollMs: number;
  /** Initial sync writes batches of about this many transactions (one commit each). */
  readonly syncBatchTxs: number;
  /** getblock requests in flight during sync (BlockFetcher parallel). */
  readonly syncRequests: number;
  /** Replaced / double-spent mempool txs stay queryable this long after removal; 0 keeps them forever. */
  readonly mempoolRemovedKeepHours: number;
}

/** `[market]` (docs/market.md); the type lives in core because the market layer may not import config. */
export type MarketConfig = MarketSettings;

export interface OutpointConfig {
  readonly dataDir: string;
  readonly store: { readonly url: string };
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly publicUrl: string;
    readonly rateLimitPerSecond: number;
  };
  /** The explorer (src/web): its own per-IP page limit. */
  readonly web: { readonly rateLimitPerSecond: number };
  readonly realtime: { readonly appKey: string; readonly sendThreads: number };
  readonly redis: { readonly url: string | null };
  readonly market: MarketConfig;
  readonly networks: readonly NetworkConfig[];
}
