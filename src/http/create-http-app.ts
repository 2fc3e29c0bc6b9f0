import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TxBroadcaster } from '../core/broadcaster.js';
import type { EventBus } from '../core/events.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../core/metrics.js';
import type { MempoolSource } from '../core/mempool-source.js';
import type { NetworkId } from '../core/network.js';
import type { PriceReader } from '../core/prices.js';
import type { AccountStore, ShortAddressStore } from '../core/store.js';
import { createServices, type Services } from '../services/create-services.js';
import { createV3Services, type V3Services } from '../services/create-v3-services.js';
import type { RawBlockSource } from '../services/auxpow-parent-service.js';
import type { NetworkMap } from '../services/network-registry.js';
import type { TlsCredentials } from './tls.js';
import { missingSegmentMessage, RouteTable } from './missing-segment.js';
import { opsRoutes, type OpsDeps } from './ops.routes.js';
import { installPerIpConcurrency } from './plugins/concurrency.plugin.js';
import { MemoryConcurrencyLimiter, type ConcurrencyLimiter } from './plugins/concurrency-limiter.js';
import { installCors } from './plugins/cors.plugin.js';
import { installFormBody } from './plugins/form-body.plugin.js';
import { installHttpMetrics } from './plugins/http-metrics.plugin.js';
import { installJsonp } from './plugins/jsonp.plugin.js';
import { installOpenApi } from './plugins/openapi.plugin.js';
import { installRateLimit } from './plugins/rate-limit.plugin.js';
import { RedisConcurrencyLimiter } from './plugins/redis-concurrency-limiter.js';
import { installRequestLog, requestId } from './plugins/request-id.plugin.js';
import { registerV3, V3_PREFIX } from './v3/register-v3.js';
import { addressRoutes } from './v2/address.routes.js';
import { blockRoutes } from './v2/block.routes.js';
import { marketRoutes } from './v2/market.routes.js';
import { sendTxRoutes } from './v2/send-tx.routes.js';
import { txRoutes } from './v2/tx.routes.js';
import type { V2Context } from './v2/v2-context.js';
import { v2ErrorHandler, v2Failure } from './v2/v2-error-handler.js';

/** The services this app builds once, shared with the other entry layers it serves. */
export interface SharedServices {
  readonly services: Services;
  /** null when the app serves no v3 (no account store). */
  readonly v3: V3Services | null;
}

/** Another entry layer served by this app on the same port (the web explorer), wired by main. */
export interface HttpExtension {
  /** Registers its routes, in its own plugin context, after the APIs. */
  register(app: FastifyInstance, shared: SharedServices): Promise<void>;
  /** Answers unknown paths outside /api/ (the explorer's HTML 404); paths under /api/ keep the JSON 404. */
  notFound?(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

export interface HttpAppDeps {
  /** The networks this server indexes (regtest networks answer under their test acronym). */
  readonly networks: NetworkMap;
  readonly prices: PriceReader;
  readonly broadcaster: TxBroadcaster;
  /** Public base URL of this deployment, for explorer links (e.g. https://outpoint.example). */
  readonly publicUrl: string;
  /** Per client IP; 0 disables the limit. */
  readonly rateLimitPerSecond: number;
  /** v2 requests in flight at once per client IP; 0 (the default) disables the limit. */
  readonly maxConcurrentPerIp?: number;
  /** Shares rate-limit counters across API processes; null keeps them per process. */
  readonly redisUrl: string | null;
  readonly logger: Logger;
  readonly shortLinks: ShortAddressStore;
  /** Take the client IP from X-Forwarded-For (only behind a trusted reverse proxy). Default false. */
  readonly trustProxy?: boolean;
  /** UNIX seconds (tests pin it); default the system clock. */
  readonly now?: () => number;
  /** v3 accounts (chainStore.accounts()); without it the v3 API is not served. */
  readonly accounts?: AccountStore;
  /** Per network, the node's mempool for v3 block projections; networks without one project the index's mempool. */
  readonly mempoolSources?: ReadonlyMap<NetworkId, MempoolSource>;
  /** The indexer's events: v3 recomputes mempool projections when the mempool changes. */
  readonly events?: EventBus;
  /** Serve HTTPS (and wss for realtime on the same server) with this certificate; plain HTTP without. */
  readonly tls?: TlsCredentials;
  /** v3 tuning (tests): key cache, usage flush interval, projection maximum age, in milliseconds. */
  readonly v3Timing?: { readonly keyCacheMs?: number; readonly usageFlushMs?: number; readonly mempoolMaxAgeMs?: number };
  /** Where request counts, latencies and limit refusals are recorded (default: nowhere). */
  readonly metrics?: Metrics;
  /** /health, /ready, /ready/{NETWORK} and (unless it has its own port) /metrics; without it they are not served. */
  readonly ops?: OpsDeps;
  /** Per network, the node's raw blocks: the explorer shows AuxPoW parents from them. */
  readonly rawBlocks?: ReadonlyMap<NetworkId, RawBlockSource>;
  /** Entry layers served beside the APIs (main passes the explorer). */
  readonly extensions?: readonly HttpExtension[];
}

const V2_PREFIX = '/api/v2';
const API_VERSION = '2.0.0';

/** The HTTP entry: v2 routes, CORS, JSONP, rate limit, one error mapping, OpenAPI at /api/v2/openapi.json. Not yet listening. */
export async function createHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    trustProxy: deps.trustProxy ?? false,
    genReqId: requestId,
    // Stealth and bech32m addresses exceed find-my-way's default 100-character parameter limit.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // An https.Server emits the same request and upgrade events: routes and the realtime server need no change.
    ...(deps.tls ? { https: { cert: deps.tls.cert, key: deps.tls.key } } : {}),
  }) as unknown as FastifyInstance;
  const services = createServices({
    networks: deps.networks,
    prices: deps.prices,
    broadcaster: deps.broadcaster,
    shortLinks: deps.shortLinks,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.rawBlocks ? { rawBlocks: deps.rawBlocks } : {}),
  });
  const context: V2Context = { services, publicUrl: deps.publicUrl };

  installRequestLog(app, deps.logger);
  const rejections = installHttpMetrics(app, deps.metrics);
  installOpenApi(app, V2_PREFIX, { title: 'Outpoint v2', version: API_VERSION, serverUrl: deps.publicUrl });
  installCors(app);
  installJsonp(app, { exceptUnder: [V3_PREFIX] });
  installFormBody(app);
  installRateLimit(app, { perSecond: deps.rateLimitPerSecond, redisUrl: deps.redisUrl, logger: deps.logger, rejections });
  // Requests in flight per client IP (v2) and per account (v3 plans), across processes when Redis is configured.
  const limiter: ConcurrencyLimiter = deps.redisUrl ? new RedisConcurrencyLimiter(deps.redisUrl, deps.logger) : new MemoryConcurrencyLimiter();
  app.addHook('onClose', async () => limiter.close());
  installPerIpConcurrency(app, { perIp: deps.maxConcurrentPerIp ?? 0, limiter, rejections });
  app.setErrorHandler(v2ErrorHandler(deps.logger));
  const v2Routes = new RouteTable(app, V2_PREFIX);
  const pages = deps.extensions?.find((e) => e.notFound !== undefined);
  app.setNotFoundHandler((request, reply) => {
    // `/api/v2/get_tx/BTC`: the operation's own shape, naming the missing key.
    const missing = v2Routes.find(request.method, request.url);
    if (missing) return v2Failure(reply, missing.config.v2Error ?? null, { status: 404, field: missing.key, message: missingSegmentMessage(missing) });
    const path = request.url.split('?')[0]!;
    if (pages?.notFound && path !== '/api' && !path.startsWith('/api/')) return pages.notFound(request, reply);
    return reply.code(404).send({ status: 'fail', data: { path: `no endpoint ${request.method} ${path.slice(0, 200)}` } });
  });

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
  if (deps.ops) opsRoutes(app, deps.ops);
  let v3: V3Services | null = null;
  if (deps.accounts) {
    const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
    v3 = createV3Services({
      networks: services.networks,
      accounts: deps.accounts,
      prices: deps.prices,
      redisUrl: deps.redisUrl,
      events: deps.events ?? null,
      mempoolSources: deps.mempoolSources ?? new Map(),
      logger: deps.logger,
      now,
      ...deps.v3Timing,
    });
    const created = v3;
    app.addHook('onClose', async () => created.close());
    await registerV3(app, { services, v3, now }, deps.logger, limiter, rejections);
  }
  for (const extension of deps.extensions ?? []) await extension.register(app, { services, v3 });
  return app;
}
