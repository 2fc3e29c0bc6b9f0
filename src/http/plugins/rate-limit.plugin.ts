import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounterFactory } from '../../core/limits/rate-counter.js';
import { RateLimiter, rateLimitHeaders } from '../../services/limits/rate-limiter.js';
import type { Rejections } from './http-metrics.plugin.js';

export interface RateLimitOptions {
  /** Requests per second per client IP; 0 turns the limit off. */
  readonly perSecond: number;
  /** This process's or shared (Redis) counters, built by main. */
  readonly counters: RateCounterFactory;
  readonly logger: Logger;
  readonly rejections?: Rejections;
}

/**
 * The v2 public limit: fixed one-second windows per client IP (services/limits/rate-limiter.ts) with the IETF draft
 * headers (RateLimit-Limit/-Remaining/-Reset) on every counted answer and Retry-After on 429. Routes with
 * `config.rateLimitExempt` are not counted here (CORS preflight, the OpenAPI document, and the explorer's pages,
 * which count under their own limit).
 */
export function installRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  if (options.perSecond <= 0) return;
  const limiter = new RateLimiter({ ...options, name: 'v2 rate limit' });

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.rateLimitExempt) return;
    const decision = await limiter.hit(request.ip);
    if (!decision) return;
    reply.headers(rateLimitHeaders(decision));
    if (decision.limited) {
      options.rejections?.count('v2', 'ip_rate');
      return reply.code(429).type('application/json; charset=utf-8').send({
        status: 'fail',
        data: { rate_limit: `Too many requests: at most ${decision.limit} per second per client. Retry after ${decision.resetSeconds} s.` },
      });
    }
  });
  app.addHook('onClose', async () => limiter.close());
}
