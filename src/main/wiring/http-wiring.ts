import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../core/infrastructure/metrics.js';
import { MemoryConcurrencyLimiter, type ConcurrencyLimiter } from '../../core/limits/concurrency-limiter.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounterFactory } from '../../core/limits/rate-counter.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { createHttpApp, type HttpAppDeps, type HttpLimits } from '../../http/create-http-app.js';
import { RedisConcurrencyLimiter } from '../../redis/redis-concurrency-limiter.js';
import { RedisRateCounter } from '../../redis/redis-rate-counter.js';
import { RedisUsageCounter } from '../../redis/redis-usage-counter.js';
import { createServices, type ServiceDeps, type Services } from '../../services/create-services.js';
import { DEFAULT_KEY_FAILURES } from '../../services/limits/key-failure-limit.js';
import { MemoryRateCounter } from '../../counters/memory-rate-counter.js';
import { StoreUsageCounter } from '../../counters/store-usage-counter.js';

/**
 * Everything the services and the HTTP app are built from, drivers and settings, as one object: createServices and
 * createHttpApp each take it whole (a new service dependency is a field of ServiceDeps and a value where the object is
 * built, nothing in between). main builds it from its drivers (http-part.ts); tests from HttpWiring (below).
 */
export interface AppWiring extends ServiceDeps, Omit<HttpAppDeps, 'services'> {}

/** Builds the services once and the HTTP app that serves them; closing the app closes the services (not the drivers). */
export async function createApp(wiring: AppWiring, onServices?: (services: Services) => void): Promise<FastifyInstance> {
  const services = createServices(wiring);
  onServices?.(services);
  const app = await createHttpApp({ ...wiring, services });
  if (wiring.metrics) registerWalletMetrics(wiring.metrics, services);
  app.addHook('onClose', () => services.close());
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

/**
 * The HTTP entry's drivers and settings as tests (and the commands that serve a store without indexers) give them:
 * counters are named by where they live (`redisUrl`) rather than built, and accounts by their store.
 */
export interface HttpWiring extends Omit<AppWiring, 'accounts' | 'limits' | 'mempoolMaxAgeMs'> {
  /** Per client IP; 0 disables the limit. */
  readonly rateLimitPerSecond: number;
  /** v2 requests in flight at once per client IP; 0 (the default) disables the limit. */
  readonly maxConcurrentPerIp?: number;
  /** Shares rate-limit, concurrency and usage counters across API processes; null keeps them per process. */
  readonly redisUrl: string | null;
  /** v3 accounts (chainStore.accounts()); without it the v3 API is not served. */
  readonly accounts?: AccountStore;
  /** v3 refused with 401 per client network and minute before it gets 429 (`[accounts] key_failures_per_ip`; 0 = off). */
  readonly keyFailuresPerIp?: number;
  /** v3 tuning (tests): key cache, usage flush interval, projection maximum age, in milliseconds. */
  readonly v3Timing?: { readonly keyCacheMs?: number; readonly usageFlushMs?: number; readonly mempoolMaxAgeMs?: number };
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

/** Requests in flight per client IP (v2) and per account (v3): in this process, or shared through Redis. */
export function concurrencyLimiter(redisUrl: string | null, logger: Logger): ConcurrencyLimiter {
  return redisUrl ? new RedisConcurrencyLimiter(redisUrl, logger) : new MemoryConcurrencyLimiter();
}

/** The request limits of `[http]`, their counters built here (the concurrency limiter is the caller's to close). */
export function httpLimits(settings: { readonly rateLimitPerSecond: number; readonly maxConcurrentPerIp?: number }, counters: RateCounterFactory, concurrency: ConcurrencyLimiter): HttpLimits {
  return {
    ratePerSecond: settings.rateLimitPerSecond, rateCounters: counters, concurrency,
    ...(settings.maxConcurrentPerIp !== undefined ? { maxConcurrentPerIp: settings.maxConcurrentPerIp } : {}),
  };
}

/** v3's account domain from the accounts store: the usage counter built here unless given (the services close it). */
export function accountDeps(
  store: AccountStore, redisUrl: string | null, logger: Logger, options: Pick<HttpWiring, 'keyFailuresPerIp' | 'v3Timing'> & { readonly usage?: UsageCounter } = {},
): NonNullable<ServiceDeps['accounts']> {
  const { v3Timing, keyFailuresPerIp } = options;
  return {
    store,
    usage: options.usage ?? usageCounter(store, redisUrl, logger, v3Timing?.usageFlushMs),
    ...(v3Timing?.keyCacheMs !== undefined ? { keyCacheMs: v3Timing.keyCacheMs } : {}),
    ...(keyFailuresPerIp !== undefined ? { keyFailures: { ...DEFAULT_KEY_FAILURES, max: keyFailuresPerIp } } : {}),
  };
}

/** The app of an HttpWiring: its counters built once, and closed with the app. */
export async function buildHttpApp(wiring: HttpWiring): Promise<FastifyInstance> {
  const { redisUrl, accounts, v3Timing, ...rest } = wiring;
  const concurrency = concurrencyLimiter(redisUrl, wiring.logger);
  const app = await createApp({
    ...rest,
    // Per-client budgets (wallet derivations, catch-up bytes) count on the rate counters of this process or Redis.
    counters: rateCounters(redisUrl),
    limits: httpLimits(wiring, rateCounters(redisUrl), concurrency),
    ...(accounts ? { accounts: accountDeps(accounts, redisUrl, wiring.logger, wiring) } : {}),
    ...(v3Timing?.mempoolMaxAgeMs !== undefined ? { mempoolMaxAgeMs: v3Timing.mempoolMaxAgeMs } : {}),
  });
  app.addHook('onClose', () => concurrency.close());
  return app;
}
