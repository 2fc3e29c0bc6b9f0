import type { ChainKind, LogLevel, MarketSettings, NetworkId, RawTxMode } from '../core/index.js';
import type { ZmqTopic } from '../chains/addressing.js';
import type { TrustProxy } from '../core/limits/client-address.js';

/** ZMQ endpoints per followed topic (`zmq_url` + `zmq_topics`). */
export interface ZmqConfig {
  readonly endpoints: Readonly<Partial<Record<ZmqTopic, string>>>;
  /** null: the notifier's default for its topics. */
  readonly reconcileMs: number | null;
}

/** The P2P listener of one network (docs/p2p.md). */
export interface P2pConfig {
  /** host:port strings, connected always. */
  readonly peers: readonly string[];
  readonly discover: boolean;
  readonly targetPeers: number;
  /** Derived: the listener runs (targetPeers > 0, and peers to connect to, configured or discovered). */
  readonly enabled: boolean;
}

export interface NetworkConfig {
  readonly id: NetworkId;
  readonly chain: ChainKind;
  readonly rpcUrl: string;
  readonly rpcCookie: string | null;
  /** null: no ZMQ, the node is polled (poll_ms). */
  readonly zmq: ZmqConfig | null;
  readonly pollMs: number;
  /** Initial sync writes batches of about this many transactions (one commit each). */
  readonly syncBatchTxs: number;
  /** getblock requests in flight during sync (BlockFetcher parallel). */
  readonly syncRequests: number;
  /** Replaced / double-spent mempool txs stay queryable this long after removal; 0 keeps them forever. */
  readonly mempoolRemovedKeepHours: number;
  /** Seconds between mempool samples (the explorer's 24-hour chart); 0 takes none. */
  readonly mempoolSampleSeconds: number;
  readonly mempoolSamplesKeepHours: number;
  readonly p2p: P2pConfig;
  /** Where this network's Electrum server listens, by transport; none: off. */
  readonly electrum: ElectrumListenConfig;
}

/** `[market]` (docs/market.md); the type lives in core because the market layer may not import config. */
export type MarketConfig = MarketSettings;

export type Registration = 'closed' | 'invite' | 'open';

/** `[accounts]`: the dashboard's sign-up, sessions and limits (docs/dashboard.md). */
export type ElectrumListenConfig = Readonly<Partial<Record<'tcp' | 'ssl' | 'ws' | 'wss', { readonly host: string; readonly port: number }>>>;

/** `[electrum]`: docs/electrum.md. */
export interface ElectrumConfig {
  readonly banner: string;
  readonly donationAddress: string;
  readonly maxConnectionsPerIp: number;
  readonly maxConnections: number;
  readonly maxSubscriptionsPerConnection: number;
  readonly maxSubscriptions: number;
  readonly maxRequestBytes: number;
  readonly requestsPerSecond: number;
  readonly maxHistory: number;
  readonly idleTimeoutS: number;
  /** `answer_cache_mb` in bytes, per process (0: off). */
  readonly answerCacheBytes: number;
  /** Processes serving the listeners (1: the serving process itself). */
  readonly processes: number;
}

export interface AccountsConfig {
  readonly registration: Registration;
  readonly defaultPlan: string;
  /** 64 hex digits; null: main reads or makes <data_dir>/secret.key. */
  readonly secretKey: string | null;
  readonly keyGraceSeconds: number;
  readonly sessionIdleHours: number;
  readonly sessionMaxDays: number;
  readonly usageKeepDays: number;
  readonly passwordHashConcurrency: number;
  readonly signinFailuresPerIp: number;
  readonly signinFailuresPerAccount: number;
  /** Password checks (right or wrong) per client network and per email in 15 minutes. */
  readonly signinAttemptsPerIp: number;
  readonly signinAttemptsPerAccount: number;
  /** v3 401s per client network and minute before 429; 0 = off. */
  readonly keyFailuresPerIp: number;
}

export interface SmtpConfig {
  /** null: no mail; the operator makes reset links. */
  readonly url: string | null;
  readonly from: string;
}

/** `[http]` bounds on clients (http-limits-config.ts; docs/operations.md, "Security"). */
export interface HttpLimitsConfig {
  /** Whose X-Forwarded-For names the client, for every per-address limit. */
  readonly trustProxy: TrustProxy;
  /** A request not fully received this long after it started is answered 408. */
  readonly requestTimeoutS: number;
  readonly keepAliveTimeoutS: number;
  /** Connections open at once (HTTP and websockets); more are closed at accept. */
  readonly maxConnections: number;
  /** With tls: Strict-Transport-Security max-age; 0 = not sent. */
  readonly hstsMaxAgeS: number;
}

export interface OutpointConfig {
  readonly dataDir: string;
  /** rawTxs: `[store] raw_txs` (docs/indexer.md, "Raw transactions"); rawTxCacheBytes: the node reader's cache per network. */
  readonly store: {
    readonly url: string;
    readonly rawTxs: RawTxMode;
    readonly rawTxCacheBytes: number;
    /** `[store] sqlite_cache_mb`: the SQLite connection's page cache; null: sized to the index. */
    readonly sqliteCacheMb: number | null;
    /** `[store] read_urls` (PostgreSQL hot standbys serving the API's reads) and `max_replica_lag_ms`. */
    readonly readUrls: readonly string[];
    readonly maxReplicaLagMs: number;
  };
  readonly http: HttpLimitsConfig & {
    readonly host: string;
    readonly port: number;
    readonly publicUrl: string;
    readonly rateLimitPerSecond: number;
    /** v2 requests in flight at once per client IP; 0 = off. */
    readonly maxConcurrentPerIp: number;
    /** PEM files for HTTPS (REST, wss realtime, web pages on one port); null: plain HTTP. Re-read on SIGHUP. */
    readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
    /** Worker processes serving the port (`[http] processes`); 1: the serving process itself. */
    readonly processes: number;
  };
  /** The explorer (src/web): its own per-IP page limit. */
  readonly web: {
    readonly rateLimitPerSecond: number;
    /** Live-region fragments (`?part=`) per client, counted apart from pages. */
    readonly liveRateLimitPerSecond: number;
  };
  /** maxConnectionsPerIp: websockets per client address, 0 = off. */
  readonly webhooks: {
    readonly allowPrivateTargets: boolean;
    readonly maxHooks: number;
    readonly maxDeliveriesPerDay: number;
    readonly planLimits: readonly string[];
    readonly retryHours: number;
    readonly concurrency: number;
    /** Name resolution of targets: deadline, and servers (empty: the system's). */
    readonly dnsTimeoutMs: number;
    readonly dnsServers: readonly string[];
    /** Wallet hooks (issue 50): how many all accounts hold, and the addresses their windows hold together. */
    readonly maxWalletHooks: number;
    readonly walletWindowAddresses: number;
  };
  /** Wallets (docs/wallets.md, Limits): derivation budget per client network, threads, queue, cache bound. */
  readonly wallets: {
    readonly derivePerMinute: number;
    readonly deriveThreads: number;
    readonly deriveQueue: number;
    readonly cacheBytes: number;
  };
  readonly realtime: {
    readonly appKey: string;
    readonly sendThreads: number;
    readonly maxConnectionsPerIp: number;
    /** Catch-up log retention (docs/realtime.md): hours (0 = no log) and ids kept per network. */
    readonly eventLogHours: number;
    readonly eventLogMaxEvents: number;
    /** A catch-up page's bound in bytes as sent, and the feed's bytes per client network and minute (0 = off). */
    readonly feedPageBytes: number;
    readonly feedBytesPerMinute: number;
  };
  readonly redis: { readonly url: string | null };
  readonly electrum: ElectrumConfig;
  readonly market: MarketConfig;
  readonly log: {
    readonly level: LogLevel;
    readonly format: 'auto' | 'json' | 'text';
    /** Write extended public keys (wallet requests) into log lines as given; false masks them (docs/wallets.md). */
    readonly walletKeys: boolean;
  };
  /** listen null: /metrics is served on the API port; else on this address alone. */
  readonly metrics: { readonly listen: { readonly host: string; readonly port: number } | null };
  /** Background checks behind /ready and the per-network metrics (docs/operations.md). */
  readonly health: { readonly maxLagBlocks: number; readonly checkIntervalMs: number; readonly timeoutMs: number };
  readonly accounts: AccountsConfig;
  readonly smtp: SmtpConfig;
  readonly networks: readonly NetworkConfig[];
}
