import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimitHeaders, type RateLimiter } from '../../services/limits/rate-limiter.js';
import type { WebShell } from './web-shell.js';

/** The budgets web requests count under. */
export interface PageRateLimits {
  /** Pages, search, CSV exports, forms: what a person opens (`[web] rate_limit_per_second`). */
  readonly pages: RateLimiter;
  /** Live-region refreshes (`?part=…`, fetched by the page script on realtime events): `[web] live_rate_limit_per_second`. */
  readonly live: RateLimiter;
}

/** A live region's refresh: the page script asks for `?part=NAME` (src/web/client/live-regions.ts). */
export function isLiveFragment(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return request.method === 'GET' && typeof query?.['part'] === 'string';
}

/**
 * The web's per-client limits (client = `request.ip`, so behind a proxy `[http] trust_proxy` makes it per visitor),
 * counted apart from the v2 API's: browsing does not use up a client's API budget, and live refreshes of open tabs
 * (several per block in each tab) do not use up the page budget of the person clicking around. Installed inside
 * the web plugin, so it counts web routes only; assets are registered outside it.
 */
export function installPageRateLimit(app: FastifyInstance, limits: PageRateLimits, shell: WebShell): void {
  if (!limits.pages.enabled && !limits.live.enabled) return;
  app.addHook('onRequest', async (request, reply) => {
    const live = isLiveFragment(request);
    const decision = await (live ? limits.live : limits.pages).hit(request.ip);
    if (!decision) return;
    reply.headers(rateLimitHeaders(decision));
    if (decision.limited) {
      const what = live ? 'live updates' : 'pages';
      return shell.errorPage(request, reply, 429, 'Too many requests', `At most ${decision.limit} ${what} per second per visitor. Please retry in ${decision.resetSeconds} s.`);
    }
  });
  app.addHook('onClose', async () => {
    await Promise.all([limits.pages.close(), limits.live.close()]);
  });
}
