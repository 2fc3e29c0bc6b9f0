import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounter, RateCounterFactory } from '../../core/limits/rate-counter.js';

export interface RateLimiterOptions {
  /** Requests per second per client; 0 turns the limit off. */
  readonly perSecond: number;
  /** Where windows are counted: built by main (this process's counters, or Redis-shared ones when `[redis] url` is set). */
  readonly counters: RateCounterFactory;
  readonly logger: Logger;
  /** Redis key prefix: separate budgets (v2 API, explorer pages) count under separate keys. */
  readonly keyPrefix?: string;
  /** Names the limiter in the one warning logged when its counter fails. */
  readonly name?: string;
}

/** One client's standing after a request was counted. */
export interface RateDecision {
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  readonly resetSeconds: number;
  readonly limited: boolean;
}

const WINDOW_MS = 1_000;
const DEFAULT_KEY_PREFIX = 'outpoint:ratelimit:';

/**
 * Fixed one-second windows per client key, shared by the entry layers (v2 answers JSON, the explorer HTML).
 * If the counter (Redis) fails, requests are let through: an outage of the limiter must not become an outage of
 * the service. The failure is logged once until the counter works again.
 */
export class RateLimiter {
  private readonly counter: RateCounter | null;
  private warned = false;

  constructor(private readonly options: RateLimiterOptions) {
    if (options.perSecond <= 0) this.counter = null;
    else this.counter = options.counters(options.keyPrefix ?? DEFAULT_KEY_PREFIX);
  }

  get enabled(): boolean {
    return this.counter !== null;
  }

  /** Counts one request of `client`; null when the limit is off or the counter is unavailable. */
  async hit(client: string): Promise<RateDecision | null> {
    if (!this.counter) return null;
    let window;
    try {
      window = await this.counter.hit(client, WINDOW_MS);
    } catch (error) {
      if (!this.warned) this.options.logger.warn(`${this.options.name ?? 'rate limit'} counter unavailable; not limiting`, { error: (error as Error).message });
      this.warned = true;
      return null;
    }
    this.warned = false;
    const limit = this.options.perSecond;
    return {
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil(window.resetMs / 1000)),
      limited: window.count > limit,
    };
  }

  async close(): Promise<void> {
    await this.counter?.close();
  }
}

/** The IETF draft headers every counted answer carries, and Retry-After on a refusal. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(decision.limited ? { 'Retry-After': String(decision.resetSeconds) } : {}),
  };
}
