import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';
import { missingSegmentMessage, RouteTable } from '../missing-segment.js';
import { installApiKey } from '../plugins/api-key.plugin.js';
import type { ConcurrencyLimiter } from '../../core/limits/concurrency-limiter.js';
import { uncountedRejections, type Rejections } from '../plugins/http-metrics.plugin.js';
import { addressRoutes } from './address.routes.js';
import { blockRoutes } from './block.routes.js';
import { networkRoutes } from './network.routes.js';
import { txRoutes } from './tx.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { webhookRoutes } from './webhook.routes.js';
import type { V3Context } from './v3-context.js';
import { v3ErrorHandler, v3Failure } from './v3-error-handler.js';

export const V3_PREFIX = '/api/v3';

/**
 * The v3 API in its own encapsulated context: its error handler and 404 answer the v3 body, the API-KEY
 * check and quota apply to every route, and v2's per-IP rate limit does not (the plan's quota is the limit).
 */
export async function registerV3(
  app: FastifyInstance,
  context: V3Context,
  logger: Logger,
  limiter: ConcurrencyLimiter,
  rejections: Rejections = uncountedRejections,
): Promise<void> {
  await app.register(
    async (v3) => {
      v3.setErrorHandler(v3ErrorHandler(logger));
      const routes = new RouteTable(v3, V3_PREFIX);
      v3.setNotFoundHandler((request, reply) => {
        // `/api/v3/balance/LTC`: the v3 error naming the missing segment (like any unknown path, no key needed).
        const missing = routes.find(request.method, request.url);
        return v3Failure(reply, 404, missing ? missingSegmentMessage(missing) : `no endpoint ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}`);
      });
      v3.addHook('onRoute', (route) => {
        route.config = { ...route.config, rateLimitExempt: true };
      });
      installApiKey(v3, { accounts: context.accounts.keys, usage: context.accounts.usage, failures: context.accounts.keyFailures, now: context.now, limiter, rejections });
      addressRoutes(v3, context);
      txRoutes(v3, context);
      blockRoutes(v3, context);
      networkRoutes(v3, context);
      walletRoutes(v3, context);
      webhookRoutes(v3, context);
    },
    { prefix: V3_PREFIX },
  );
}
