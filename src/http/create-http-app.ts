import Fastify, { type FastifyInstance } from 'fastify';
import type { TxBroadcaster } from '../core/broadcaster.js';
import type { Logger } from '../core/logger.js';
import type { PriceReader } from '../core/prices.js';
import type { ShortAddressStore } from '../core/store.js';
import { createServices } from '../services/create-services.js';
import type { NetworkMap } from '../services/network-registry.js';
import { installCors } from './plugins/cors.plugin.js';
import { installFormBody } from './plugins/form-body.plugin.js';
import { installJsonp } from './plugins/jsonp.plugin.js';
import { installOpenApi } from './plugins/openapi.plugin.js';
import { installRateLimit } from './plugins/rate-limit.plugin.js';
import { addressRoutes } from './v2/address.routes.js';
import { blockRoutes } from './v2/block.routes.js';
import { marketRoutes } from './v2/market.routes.js';
import { sendTxRoutes } from './v2/send-tx.routes.js';
import { txRoutes } from './v2/tx.routes.js';
import type { V2Context } from './v2/v2-context.js';
import { v2ErrorHandler } from './v2/v2-error-handler.js';

export interface HttpAppDeps {
  /** The networks this server indexes (regtest networks answer under their test acronym). */
  readonly networks: NetworkMap;
  readonly prices: PriceReader;
  readonly broadcaster: TxBroadcaster;
  /** Public base URL of this deployment, for explorer links (e.g. https://outpoint.example). */
  readonly publicUrl: string;
  /** Per client IP; 0 disables the limit. */
  readonly rateLimitPerSecond: number;
  /** Shares rate-limit counters across API processes; null keeps them per process. */
  readonly redisUrl: string | null;
  readonly logger: Logger;
  readonly shortLinks: ShortAddressStore;
  /** Take the client IP from X-Forwarded-For (only behind a trusted reverse proxy). Default false. */
  readonly trustProxy?: boolean;
  /** UNIX seconds (tests pin it); default the system clock. */
  readonly now?: () => number;
}

const V2_PREFIX = '/api/v2';
const API_VERSION = '2.0.0';

/** The HTTP entry: v2 routes, CORS, JSONP, rate limit, one error mapping, OpenAPI at /api/v2/openapi.json. Not yet listening. */
export async function createHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    trustProxy: deps.trustProxy ?? false,
    // Stealth and bech32m addresses exceed find-my-way's default 100-character parameter limit.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  const services = createServices({
    networks: deps.networks,
    prices: deps.prices,
    broadcaster: deps.broadcaster,
    shortLinks: deps.shortLinks,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const context: V2Context = { services, publicUrl: deps.publicUrl };

  installOpenApi(app, V2_PREFIX, { title: 'Outpoint v2', version: API_VERSION, serverUrl: deps.publicUrl });
  installCors(app);
  installJsonp(app);
  installFormBody(app);
  installRateLimit(app, { perSecond: deps.rateLimitPerSecond, redisUrl: deps.redisUrl, logger: deps.logger });
  app.setErrorHandler(v2ErrorHandler(deps.logger));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ status: 'fail', data: { path: `no endpoint ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}` } }),
  );

  await app.register(
    async (v2) => {
      addressRoutes(v2, context);
      txRoutes(v2, context);
      sendTxRoutes(v2, context);
      blockRoutes(v2, context);
      marketRoutes(v2, context);
    },
    { prefix: V2_PREFIX },
  );
  return app;
}
