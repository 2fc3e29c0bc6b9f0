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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `?part=` names this page answers (its live regions); a request for any other part is a 404 counted as a page. */
    liveParts?: readonly string[];
  }
}

/**
 * The part a GET asks for (`?part=NAME`, asked by the page script for a live region: src/web/client/live-regions.ts),
 * or null when it asks for the whole page. Any value counts, repeated or empty ones included.
 */
function askedPart(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const part = query?.['part'];
  return request.method === 'GET' && part !== undefined ? String(part) : null;
}

/**
 * The web's per-client limits (client = `request.ip`, so behind a proxy `[http] trust_proxy` makes it per visitor),
 * counted apart from the v2 API's: browsing does not use up a client's API budget, and live refreshes of open tabs
 * (several per block in each tab) do not use up the page budget of the person clicking around. Only a part the
 * route names (`config.liveParts`) counts as a live refresh: any other `?part=` would otherwise let a client move
 * whole pages (a wallet's derivation among them) to the larger live budget, so it counts as a page and is a 404.
 * Installed inside the web plugin, so it counts web routes only; assets are registered outside it.
 */
export function installPageRateLimit(app: FastifyInstance, limits: PageRateLimits, shell: WebShell): void {
  app.addHook('onRequest', async (request, reply) => {
    const part = askedPart(request);
    const live = part !== null && (request.routeOptions.config.liveParts ?? []).includes(part);
    const limiter = live ? limits.live : limits.pages;
    const decision = limiter.enabled ? await limiter.hit(request.ip) : null;
    if (decision) {
      reply.headers(rateLimitHeaders(decision));
      if (decision.limited) {
        const what = live ? 'live updates' : 'pages';
        return shell.errorPage(request, reply, 429, 'Too many requests', `At most ${decision.limit} ${what} per second per visitor. Please retry in ${decision.resetSeconds} s.`);
      }
    }
    if (part !== null && !live) return shell.errorPage(request, reply, 404, 'Not found', 'This page has no such part.');
  });
  app.addHook('onClose', async () => {
    await Promise.all([limits.pages.close(), limits.live.close()]);
  });
}
