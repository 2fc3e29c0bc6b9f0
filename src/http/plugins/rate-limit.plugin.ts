import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../core/logger.js';
import type { Rejections } from './http-metrics.plugin.js';
import { MemoryRateCounter, type RateCounter } from './rate-counter.js';
import { RedisRateCounter } from './redis-rate-counter.js';

export interface RateLimitOptions {
  /** Requests per second per client IP; 0 turns the limit off. */
  readonly perSecond: number;
  /** Share counters between processes through Redis; null keeps them in this process. */
  readonly redisUrl: string | null;
  readonly logger: Logger;
  readonly rejections?: Rejections;
}

const WINDOW_MS = 1_000;

/**
 * Fixed one-second windows per client IP with the IETF draft headers (RateLimit-Limit/-Remaining/-Reset)
 * on every counted answer and Retry-After on 429. If Redis fails the request is let through: an
 * outage of the limiter must not become an outage of the API.
 */
export function installRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  if (options.perSecond <= 0) return;
  const limit = options.perSecond;
  const counter: RateCounter = options.redisUrl ? new RedisRateCounter(options.redisUrl) : new MemoryRateCounter();
  let warned = false;

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.rateLimitExempt) return;
    let window;
    try {
      window = await counter.hit(request.ip, WINDOW_MS);
    } catch (error) {
      if (!warned) options.logger.warn('rate limit counter unavailable; not limiting', { error: (error as Error).message });
      warned = true;
      return;
    }
    warned = false;
    const resetSeconds = Math.max(1, Math.ceil(window.resetMs / 1000));
    reply.header('RateLimit-Limit', String(limit));
    reply.header('RateLimit-Remaining', String(Math.max(0, limit - window.count)));
    reply.header('RateLimit-Reset', String(resetSeconds));
    if (window.count > limit) {
      options.rejections?.count('v2', 'ip_rate');
      reply.header('Retry-After', String(resetSeconds));
      return reply.code(429).type('application/json; charset=utf-8').send({
        status: 'fail',
        data: { rate_limit: `Too many requests: at most ${limit} per second per client. Retry after ${resetSeconds} s.` },
      });
    }
  });
  app.addHook('onClose', async () => counter.close());
}
