import type { FastifyInstance } from 'fastify';
import { rateLimitHeaders, type RateLimiter } from '../../services/limits/rate-limiter.js';
import type { WebShell } from './web-shell.js';

/**
 * The explorer's per-IP limit (pages, search, live fragments, CSV exports), counted apart from the v2 API's
 * (`[web] rate_limit_per_second`, by default the API's value): browsing does not use up a client's API budget.
 * Installed inside the web plugin, so it counts web routes only; assets are registered outside it.
 */
export function installPageRateLimit(app: FastifyInstance, limiter: RateLimiter, shell: WebShell): void {
  if (!limiter.enabled) return;
  app.addHook('onRequest', async (request, reply) => {
    const decision = await limiter.hit(request.ip);
    if (!decision) return;
    reply.headers(rateLimitHeaders(decision));
    if (decision.limited) {
      return shell.errorPage(request, reply, 429, 'Too many requests', `At most ${decision.limit} pages per second per visitor. Please retry in ${decision.resetSeconds} s.`);
    }
  });
  app.addHook('onClose', async () => limiter.close());
}
