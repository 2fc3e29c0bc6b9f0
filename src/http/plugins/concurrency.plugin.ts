import type { FastifyInstance } from 'fastify';
import type { Rejections } from './http-metrics.plugin.js';
import { releaseWhenDone } from './release-when-done.js';
import type { ConcurrencyLimiter } from '../../core/limits/concurrency-limiter.js';

export interface PerIpConcurrencyOptions {
  /** Requests of one client IP in flight at once; 0 turns the limit off. */
  readonly perIp: number;
  readonly limiter: ConcurrencyLimiter;
  readonly rejections?: Rejections;
}

/**
 * v2's public access, limited by requests in flight per client IP (`[http] max_concurrent_per_ip`), on the same
 * routes as the rate limit (v3 has its plan's limit instead). Over the limit: 429 with the v2 failure body.
 */
export function installPerIpConcurrency(app: FastifyInstance, options: PerIpConcurrencyOptions): void {
  if (options.perIp <= 0) return;
  const limit = options.perIp;
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.rateLimitExempt) return;
    const release = await options.limiter.acquire(`ip:${request.ip}`, limit);
    if (release) return releaseWhenDone(reply, release);
    options.rejections?.count('v2', 'ip_concurrency');
    reply.header('Retry-After', '1');
    return reply.code(429).type('application/json; charset=utf-8').send({
      status: 'fail',
      data: { concurrent_requests: `Too many concurrent requests: at most ${limit} at once per client. Retry when one has finished.` },
    });
  });
}
