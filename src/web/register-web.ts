import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../core/infrastructure/logger.js';
import type { RateCounterFactory } from '../core/limits/rate-counter.js';
import type { Services } from '../services/create-services.js';
import { RateLimiter } from '../services/limits/rate-limiter.js';
import type { WebAssets } from './shell/assets.js';
import { installPageRateLimit } from './shell/page-rate-limit.js';
import { themeRoutes } from './shell/theme.js';
import { webErrorHandler, webNotFound } from './shell/web-errors.js';
import { WebShell } from './shell/web-shell.js';

export interface WebOptions {
  /** Shown in the header and page titles. Default "Outpoint". */
  readonly siteName?: string;
  /** Base of absolute links (short addresses, curl lines), e.g. https://explorer.example. */
  readonly publicUrl: string;
  /** The realtime application key the pages' script connects with. */
  readonly realtimeKey: string;
  /** Pages per second per client IP; 0 = off. */
  readonly rateLimitPerSecond: number;
  /** Live-region refreshes per second per client IP, counted apart from pages; 0 = off. Default: 3 × rateLimitPerSecond. */
  readonly liveRateLimitPerSecond?: number;
  /** Page counters built by main: this process's, or shared through Redis. */
  readonly rateCounters: RateCounterFactory;
  readonly logger: Logger;
  readonly assets: WebAssets;
  /** UNIX seconds (tests pin it). */
  readonly now?: () => number;
}

/** Everything registered on the shell after it exists: the explorer's pages, the dashboard's. */
export interface WebContext {
  readonly shell: WebShell;
  readonly options: WebOptions;
  readonly services: Services;
  readonly now: () => number;
}

/** A group of pages (the explorer, the dashboard), registered inside the web plugin with the shell. */
export type WebModule = (app: FastifyInstance, context: WebContext) => void | Promise<void>;

export interface Web {
  readonly shell: WebShell;
  /** Registers the web plugin (main passes the whole object to createHttpApp as an extension). */
  register(app: FastifyInstance, services: Services): Promise<void>;
  /** The HTML 404 for unknown paths outside /api/. */
  notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/**
 * The web entry layer: server-rendered pages on the API's Fastify app and port. Its routes live in their own
 * plugin context, so the HTML error handler, the page rate limit and (through sendHtml) the security headers
 * apply to them and not to the APIs. Assets are served outside the rate limit (hashed, cached for a year).
 */
export function createWeb(options: WebOptions, modules: readonly WebModule[]): Web {
  const shell = new WebShell({
    siteName: options.siteName ?? 'Outpoint',
    assets: options.assets,
    realtimeKey: options.realtimeKey,
  });
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    shell,
    notFound: webNotFound(shell),
    async register(app, services) {
      await app.register(async (web) => {
        // Web routes are counted by the page limit below, not by the v2 API's (http's rateLimitExempt).
        web.addHook('onRoute', (route) => {
          route.config = { ...route.config, rateLimitExempt: true };
        });
        options.assets.routes(web);
        await web.register(async (pages) => {
          const limiter = (perSecond: number, keyPrefix: string, name: string): RateLimiter =>
            new RateLimiter({ perSecond, counters: options.rateCounters, logger: options.logger, keyPrefix, name });
          installPageRateLimit(pages, {
            pages: limiter(options.rateLimitPerSecond, 'outpoint:ratelimit:web:', 'page rate limit'),
            live: limiter(options.liveRateLimitPerSecond ?? options.rateLimitPerSecond * 3, 'outpoint:ratelimit:live:', 'live update rate limit'),
          }, shell);
          pages.setErrorHandler(webErrorHandler(shell, options.logger));
          themeRoutes(pages, options.publicUrl);
          for (const module of modules) await module(pages, { shell, options, services, now });
        });
      });
    },
  };
}
