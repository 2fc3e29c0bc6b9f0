import type { FastifyInstance } from 'fastify';
import type { TxBroadcaster } from '../../core/sources/broadcaster.js';
import { MemoryConcurrencyLimiter, type ConcurrencyLimiter } from '../../core/limits/concurrency-limiter.js';
import type { EventBus } from '../../core/domain/events.js';
import type { EventLogStore } from '../../core/store/event-log-store.js';
import type { MempoolSampleStore } from '../../core/store/mempool-sample-store.js';
import type { FeeEstimateSource } from '../../core/sources/fee-source.js';
import type { MempoolPackageSource } from '../../core/sources/mempool-package-source.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { MempoolSource } from '../../core/sources/mempool-source.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { PriceReader } from '../../core/domain/prices.js';
import type { RateCounterFactory } from '../../core/limits/rate-counter.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { createHttpApp, type HttpAppDeps } from '../../http/create-http-app.js';
import type { Metrics } from '../../core/infrastructure/metrics.js';
import { RedisConcurrencyLimiter } from '../../redis/redis-concurrency-limiter.js';
import { RedisRateCounter } from '../../redis/redis-rate-counter.js';
import { RedisUsageCounter } from '../../redis/redis-usage-counter.js';
import type { RawBlockSource } from '../../services/blocks/auxpow-parent-service.js';
import { createServices, type ServiceDeps, type Services, type WalletLimits } from '../../services/create-services.js';
import { DEFAULT_KEY_FAILURES } from '../../services/limits/key-failure-limit.js';
import { MemoryRateCounter } from '../../counters/memory-rate-counter.js';
import type { NetworkMap } from '../../services/shared/network-registry.js';
import { StoreUsageCounter } from '../../counters/store-usage-counter.js';

/** Everything the HTTP entry needs, as drivers and settings: main (and tests) hand it here, it builds the rest. */
export interface HttpWiring extends Omit<HttpAppDeps, 'services' | 'limits'> {
  /** The networks this server indexes (regtest networks answer under their test acronym). */
  readonly networks: NetworkMap;
  readonly prices: PriceReader;
  readonly broadcaster: TxBroadcaster;
  /** Per client IP; 0 disables the limit. */
  readonly rateLimitPerSecond: number;
  /** v2 requests in flight at once per client IP; 0 (the default) disables the limit. */
  readonly maxConcurrentPerIp?: number;
  /** Shares rate-limit, concurrency and usage counters across API processes; null keeps them per process. */
  readonly redisUrl: string | null;
  readonly shortLinks: ShortAddressStore;
  /** v3 accounts (chainStore.accounts()); without it the v3 API is not served. */
  readonly accounts?: AccountStore;
  /** Per network, the node's mempool for v3 block projections; networks without one project the index's mempool. */
  readonly mempoolSources?: ReadonlyMap<NetworkId, MempoolSource>;
  /** Per network, the node's fee estimates (v3 fee_estimates); networks without one use the projection and relay fee. */
  readonly feeSources?: ReadonlyMap<NetworkId, FeeEstimateSource>;
  readonly packageSources?: ReadonlyMap<NetworkId, MempoolPackageSource>;
  /** The indexer's events: v3 recomputes mempool projections when the mempool changes. */
  readonly events?: EventBus;
  /** v3 requests refused with 401 per client network and minute before it gets 429 (`[accounts] key_failures_per_ip`; 0 = off). */
  readonly keyFailuresPerIp?: number;
  /** v3 tuning (tests): key cache, usage flush interval, projection maximum age, in milliseconds. */
  readonly v3Timing?: { readonly keyCacheMs?: number; readonly usageFlushMs?: number; readonly mempoolMaxAgeMs?: number };
  /** Per network, the node's raw blocks: the explorer shows AuxPoW parents from them. */
  readonly rawBlocks?: ReadonlyMap<NetworkId, RawBlockSource>;
  /** The realtime event log (chainStore.events()): serves the v2 catch-up feed; without it the feed is absent. */
  readonly eventLog?: EventLogStore;
  /** The indexers' mempool samples: the explorer's 24-hour mempool chart. */
  readonly mempoolSamples?: MempoolSampleStore;
  /** Webhook registration (v3): the store, the sender's target check, the plans' limits. */
  readonly webhooks?: ServiceDeps['webhooks'];
  /** `[wallets]`: the per-client derivation budget (counted on the rate counters built here), threads, queue, cache. */
  readonly wallets?: WalletLimits;
  /** The catch-up feed's page bound in bytes and its bytes per client network and minute. */
  readonly feed?: ServiceDeps['feed'];
}

/** Rate-limit windows counted in this process, or in Redis so that N API processes allow the configured rate in total. */
export function rateCounters(redisUrl: string | null): RateCounterFactory {
  return redisUrl ? (prefix) => new RedisRateCounter(redisUrl, prefix) : () => new MemoryRateCounter();
}

/** Requests per account and day: always counted in this process and flushed to the store; shared through Redis when set. */
export function usageCounter(accounts: AccountStore, redisUrl: string | null, logger: Logger, flushMs?: number): UsageCounter {
  const local = new StoreUsageCounter(accounts, logger, flushMs);
  return redisUrl ? new RedisUsageCounter(redisUrl, local, logger) : local;
}

/** Builds the services and counters once and the HTTP app that serves them; closing the app closes them. */
export async function buildHttpApp(wiring: HttpWiring): Promise<FastifyInstance> {
  const { networks, prices, broadcaster, rateLimitPerSecond, maxConcurrentPerIp, redisUrl, shortLinks, accounts, mempoolSources, feeSources, packageSources, events, v3Timing, rawBlocks, keyFailuresPerIp, eventLog, webhooks, mempoolSamples, wallets, feed, ...http } = wiring;
  const services = createServices({
    networks, prices, broadcaster, shortLinks, logger: http.logger, events: events ?? null, mempoolSources: mempoolSources ?? new Map(),
    counters: rateCounters(redisUrl),
    ...(wallets ? { wallets } : {}),
    ...(feed ? { feed } : {}),
    ...(http.now ? { now: http.now } : {}),
    ...(rawBlocks ? { rawBlocks } : {}),
    ...(eventLog ? { eventLog } : {}),
    ...(mempoolSamples ? { mempoolSamples } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(feeSources ? { feeSources } : {}),
    ...(packageSources ? { packageSources } : {}),
    ...(v3Timing?.mempoolMaxAgeMs !== undefined ? { mempoolMaxAgeMs: v3Timing.mempoolMaxAgeMs } : {}),
    ...(accounts ? {
      accounts: {
        store: accounts,
        usage: usageCounter(accounts, redisUrl, http.logger, v3Timing?.usageFlushMs),
        ...(v3Timing?.keyCacheMs !== undefined ? { keyCacheMs: v3Timing.keyCacheMs } : {}),
        ...(keyFailuresPerIp !== undefined ? { keyFailures: { ...DEFAULT_KEY_FAILURES, max: keyFailuresPerIp } } : {}),
      },
    } : {}),
  });
  const concurrency: ConcurrencyLimiter = redisUrl ? new RedisConcurrencyLimiter(redisUrl, http.logger) : new MemoryConcurrencyLimiter();
  const limits = { ratePerSecond: rateLimitPerSecond, rateCounters: rateCounters(redisUrl), concurrency, ...(maxConcurrentPerIp !== undefined ? { maxConcurrentPerIp } : {}) };
  const app = await createHttpApp({ ...http, services, limits });
  if (http.metrics) registerWalletMetrics(http.metrics, services);
  app.addHook('onClose', async () => {
    await services.close();
    await concurrency.close();
  });
  return app;
}

/** The derivation cache's size at scrape time (its bound is `[wallets] cache_mb`). */
function registerWalletMetrics(metrics: Metrics, services: Services): void {
  metrics.sampled({
    name: 'outpoint_wallet_cache_bytes', help: 'Bytes held by the wallet derivation cache, as counted against [wallets] cache_mb.', type: 'gauge',
    sample: () => [{ labels: {}, value: services.wallets.cacheStats().bytes }],
  });
  metrics.sampled({
    name: 'outpoint_wallet_cache_wallets', help: 'Wallets whose derived scripts the cache holds.', type: 'gauge',
    sample: () => [{ labels: {}, value: services.wallets.cacheStats().wallets }],
  });
}
