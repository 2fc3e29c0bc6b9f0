/**
 * The per-client counters the HTTP part counts on (limits, quotas, sign-in attempts): this process's own (in memory,
 * or Redis when `[redis] url` is set), or, in an HTTP worker process, the serving process's over IPC (ipc-counters.ts).
 */
import type { OutpointConfig } from '../../../config/index.js';
import type { Logger } from '../../../core/infrastructure/logger.js';
import type { AttemptCounter } from '../../../core/limits/attempt-counter.js';
import type { ConcurrencyLimiter } from '../../../core/limits/concurrency-limiter.js';
import type { RateCounterFactory } from '../../../core/limits/rate-counter.js';
import type { UsageCounter } from '../../../core/limits/usage-counter.js';
import type { AccountStore } from '../../../core/store/account-store.js';
import { createAttemptCounter } from '../dashboard-wiring.js';
import { concurrencyLimiter, rateCounters, usageCounter } from '../http-wiring.js';

export interface HttpCounters {
  readonly rateCounters: RateCounterFactory;
  /** Requests in flight per client IP (v2) and account (v3); the HTTP part closes it. */
  readonly concurrency: ConcurrencyLimiter;
  /** Realtime's websockets per client address, when counted outside realtime itself (HTTP workers: by the serving process). */
  readonly realtimeSlots?: ConcurrencyLimiter;
  /** v3 requests per account and day (the services close it). */
  readonly usage: (accounts: AccountStore) => UsageCounter;
  /** The dashboard's sign-in and sign-up attempts (the dashboard closes it). */
  readonly attempts: () => AttemptCounter;
}

/** This process's counters: in memory, or shared through Redis with every other process of the deployment. */
export function processCounters(config: OutpointConfig, logger: Logger, usageFlushMs?: number): HttpCounters {
  const redisUrl = config.redis.url;
  return {
    rateCounters: rateCounters(redisUrl),
    concurrency: concurrencyLimiter(redisUrl, logger),
    usage: (accounts) => usageCounter(accounts, redisUrl, logger, usageFlushMs),
    attempts: () => createAttemptCounter(config, logger),
  };
}
