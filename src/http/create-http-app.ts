import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ApiDocuments } from '../core/infrastructure/api-documents.js';
import type { Logger } from '../core/infrastructure/logger.js';
import type { Metrics } from '../core/infrastructure/metrics.js';
import type { Services } from '../services/create-services.js';
import type { TlsCredentials } from './tls.js';
import { compileTrust, type TrustProxy } from '../core/limits/client-address.js';
import { MAX_WALLET_TEXT } from '../chains/wallet/wallet-descriptor.js';
import { applyServerLimits, resolveServerLimits, type ServerLimits } from './server-limits.js';
import { missingSegmentMessage, RouteTable } from './missing-segment.js';
import { opsRoutes, type OpsDeps } from './ops.routes.js';
import { installPerIpConcurrency } from './plugins/concurrency.plugin.js';
import type { ConcurrencyLimiter } from '../core/limits/concurrency-limiter.js';
import type { RateCounterFactory } from '../core/limits/rate-counter.js';
import { installCors } from './plugins/cors.plugin.js';
import { installFormBody } from './plugins/form-body.plugin.js';
import { installHsts } from './plugins/hsts.plugin.js';
import { installHttpMetrics } from './plugins/http-metrics.plugin.js';
import { installJsonBody } from './plugins/json-body.plugin.js';
import { installJsonp } from './plugins/jsonp.plugin.js';
import { installOpenApi } from './plugins/openapi.plugin.js';
import { installRateLimit } from './plugins/rate-limit.plugin.js';
import { installReadScope } from './plugins/read-scope.plugin.js';
import { installRequestLog, requestId } from './plugins/request-id.plugin.js';
import type { ReadScope } from '../core/store/read-replicas.js';
import { registerV3, V3_PREFIX } from './v3/register-v3.js';
import { v3Fail } from './v3/schemas/v3-schema-kit.js';
import { addressRoutes } from './v2/address.routes.js';
import { blockRoutes } from './v2/block.routes.js';
import { eventRoutes } from './v2/events.routes.js';
import { marketRoutes } from './v2/market.routes.js';
import { sendTxRoutes } from './v2/send-tx.routes.js';
import { txRoutes } from './v2/tx.routes.js';
import type { V2Context } from './v2/v2-context.js';
import { v2ErrorHandler, v2Failure } from './v2/v2-error-handler.js';

/** Another entry layer served by this app on the same port (the web explorer), wired by main. */
export interface HttpExtension {
  /** Registers its routes, in its own plugin context, after the APIs. */
  register(app: FastifyInstance, services: Services): Promise<void>;
  /** Answers unknown paths outside /api/ (the explorer's HTML 404); paths under /api/ keep the JSON 404. */
  notFound?(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/** How requests are limited: the counters are built by main (in this process, or shared through Redis). */
export interface HttpLimits {
  /** v2 requests per second per client IP; 0 disables the limit. */
  readonly ratePerSecond: number;
  readonly rateCounters: RateCounterFactory;
  /** v2 requests in flight at once per client IP; 0 (the default) disables the limit. */
  readonly maxConcurrentPerIp?: number;
  /** Requests in flight per client IP (v2) and per account (v3 plans). */
  readonly concurrency: ConcurrencyLimiter;
}

/** What the app serves (built once by main) and how: no drivers, no store. */
export interface HttpAppDeps {
  /** Built once by main; v3 is served when its account domain exists. */
  readonly services: Services;
  readonly limits: HttpLimits;
  /** Public base URL of this deployment, for explorer links (e.g. https://outpoint.example). */
  readonly publicUrl: string;
  readonly logger: Logger;
  /** Whose X-Forwarded-For names the client (`[http] trust_proxy`, core/client-address.ts). Default false. */
  readonly trustProxy?: TrustProxy;
  /** Request and keep-alive timeouts, the connection cap (server-limits.ts for the defaults). */
  readonly serverLimits?: Partial<ServerLimits>;
  /** UNIX seconds (tests pin it); default the system clock. */
  readonly now?: () => number;
  /** Serve HTTPS (and wss for realtime on the same server) with this certificate; plain HTTP without. */
  readonly tls?: TlsCredentials;
  /** With tls: Strict-Transport-Security max-age (`[http] hsts_max_age_s`; default one year, 0 = not sent). */
  readonly hstsMaxAgeSeconds?: number;
  /** Where request counts, latencies and limit refusals are recorded (default: nowhere). */
  readonly metrics?: Metrics;
  /** /health, /ready, /ready/{NETWORK} and (unless it has its own port) /metrics; without it they are not served. */
  readonly ops?: OpsDeps;
  /** Entry layers served beside the APIs (main passes the explorer). */
  readonly extensions?: readonly HttpExtension[];
  /** Where the OpenAPI documents are published for the web layer's /docs page (main shares one with it). */
  readonly apiDocuments?: ApiDocuments;
  /** Each request's reads from one source (the store's read replicas); default every read as it comes. */
  readonly readScope?: ReadScope;
}

const V2_PREFIX = '/api/v2';
const API_VERSION = '2.0.0';
/** One year: long enough to matter between visits (the usual recommendation), the operator can lower it. */
const HSTS_DEFAULT_SECONDS = 31_536_000;
const V3_API_VERSION = '3.0.0';
const V2_DESCRIPTION = 'Outpoint v2 REST API: no key, JSONP (?callback=), a per-IP rate limit (docs/api-v2.md).';
const V3_DESCRIPTION = 'Outpoint v3 REST API: every request carries an API key in the API-KEY header and counts against its plan\'s daily quota (docs/api-v3.md).';

/**
 * The HTTP entry: v2 routes, CORS, JSONP, rate limit, one error mapping, OpenAPI at /api/v2/openapi.json (and v3's at
 * /api/v3/openapi.json when v3 is served). Not yet listening.
 */
export async function createHttpApp(deps: HttpAppDeps): Promise<FastifyInstance> {
  const serverLimits = resolveServerLimits(deps.serverLimits);
  const app = Fastify({
    logger: false,
    // Compiled here, not by Fastify: one rule for request.ip and the realtime upgrade (a hop count keeps its meaning).
    trustProxy: compileTrust(deps.trustProxy ?? false) ?? false,
    genReqId: requestId,
    // Stealth and bech32m addresses exceed find-my-way's default 100-character parameter limit, and a multisig
    // descriptor with its keys' origins is one path segment of up to MAX_WALLET_TEXT characters (decoded: the limit
    // applies after percent-decoding; Node's 16 KiB header limit bounds the encoded request line).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_WALLET_TEXT },
    // A stop (SIGTERM) closes the listener and idle connections, and answers what arrives on busy keep-alive
    // connections meanwhile like any request (the store closes only after the last answer) instead of Fastify's 503.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // An https.Server emits the same request and upgrade events: routes and the realtime server need no change.
    ...(deps.tls ? { https: { cert: deps.tls.cert, key: deps.tls.key } } : {}),
  }) as unknown as FastifyInstance;
  applyServerLimits(app.server, serverLimits);
  const { services } = deps;
  const context: V2Context = { services, publicUrl: deps.publicUrl };

  installRequestLog(app, deps.logger);
  if (deps.tls) installHsts(app, deps.hstsMaxAgeSeconds ?? HSTS_DEFAULT_SECONDS);
  if (deps.readScope) installReadScope(app, deps.readScope);
  const rejections = installHttpMetrics(app, deps.metrics);
  installOpenApi(app, V2_PREFIX, { title: 'Outpoint v2', version: API_VERSION, serverUrl: deps.publicUrl, description: V2_DESCRIPTION }, { jsonp: true }, deps.apiDocuments);
  if (services.accounts) {
    installOpenApi(app, V3_PREFIX, { title: 'Outpoint v3', version: V3_API_VERSION, serverUrl: deps.publicUrl, description: V3_DESCRIPTION },
      { jsonp: false, apiKey: { header: 'API-KEY', failure: v3Fail } }, deps.apiDocuments);
  }
  installCors(app);
  installJsonp(app, { exceptUnder: [V3_PREFIX] });
  installFormBody(app);
  installJsonBody(app);
  const { limits } = deps;
  installRateLimit(app, { perSecond: limits.ratePerSecond, counters: limits.rateCounters, logger: deps.logger, rejections });
  installPerIpConcurrency(app, { perIp: limits.maxConcurrentPerIp ?? 0, limiter: limits.concurrency, rejections });
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
      eventRoutes(v2, context);
    },
    { prefix: V2_PREFIX },
  );
  if (deps.ops) opsRoutes(app, deps.ops);
  if (services.accounts) {
    const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
    await registerV3(app, { services, accounts: services.accounts, now }, deps.logger, limits.concurrency, rejections);
  }
  for (const extension of deps.extensions ?? []) await extension.register(app, services);
  return app;
}
