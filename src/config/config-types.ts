import type { ChainKind, NetworkId, PriceSourceId } from '../core/index.js';

export interface NetworkConfig {
  readonly id: NetworkId;
  readonly chain: ChainKind;
  readonly rpcUrl: string;
  readonly rpcCookie: string | null;
  readonly zmqUrl: string | null;
  readonly pollMs: number;
  /** Initial sync writes batches of about this many transactions (one commit each). */
  readonly syncBatchTxs: number;
}

/** `[market]`: exchange price polling (docs/market.md). No sources: nothing polls and price answers stay empty. */
export interface MarketConfig {
  readonly sources: readonly PriceSourceId[];
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxAgeS: number;
  /** Per source, a replacement for the exchange's API origin (`<source>_url`). */
  readonly baseUrls: Readonly<Partial<Record<PriceSourceId, string>>>;
}

export interface OutpointConfig {
  readonly dataDir: string;
  readonly store: { readonly url: string };
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly publicUrl: string;
    readonly rateLimitPerSecond: number;
  };
  readonly realtime: { readonly appKey: string };
  readonly redis: { readonly url: string | null };
  readonly market: MarketConfig;
  readonly networks: readonly NetworkConfig[];
}
