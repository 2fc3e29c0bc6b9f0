import type { FastifyInstance } from 'fastify';
import { LATENCY_BUCKETS, noMetrics, type Metrics } from '../../core/infrastructure/metrics.js';

/** Which limit refused a request: v2's per-IP rate and concurrency, v3's daily quota and per-account concurrency. */
export type RejectionLimit = 'ip_rate' | 'ip_concurrency' | 'daily_quota' | 'account_concurrency';

export interface Rejections {
  count(api: 'v2' | 'v3', limit: RejectionLimit): void;
}

export const uncountedRejections: Rejections = { count: () => undefined };

/**
 * Requests by API, method, route pattern and status, with a latency histogram per route, and requests refused by
 * a limit. Routes are the registered patterns (`/api/v2/get_tx/:network/:txid`), never raw URLs, so the number of
 * series stays bounded whatever clients send; requests no route matched count as `unmatched`.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics = noMetrics): Rejections {
  const requests = metrics.counter({
    name: 'outpoint_http_requests_total',
    help: 'HTTP requests answered, by API version, method, route pattern and status.',
    labels: ['api', 'method', 'route', 'status'],
  });
  const duration = metrics.histogram({
    name: 'outpoint_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by API version, method and route pattern.',
    labels: ['api', 'method', 'route'],
    buckets: LATENCY_BUCKETS,
  });
  const rejected = metrics.counter({
    name: 'outpoint_quota_rejections_total',
    help: 'Requests refused with 429 by a limit: ip_rate and ip_concurrency (v2), daily_quota and account_concurrency (v3).',
    labels: ['api', 'limit'],
  });
  // Series resolved once per (method, route, status): the hook costs a string key and a Map lookup per request.
  const series = new Map<string, { count: { inc(): void }; time: { observe(seconds: number): void } }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const key = route === undefined ? `${request.method} ${reply.statusCode} ${apiOf(request.url)}` : `${request.method} ${reply.statusCode} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { api: apiOf(route ?? request.url, route === undefined), method: request.method, route: route ?? 'unmatched' };
      s = { count: requests.bind({ ...labels, status: reply.statusCode }), time: duration.bind(labels) };
      series.set(key, s);
    }
    s.count.inc();
    s.time.observe(reply.elapsedTime / 1000);
    done();
  });
  return { count: (api, limit) => rejected.inc({ api, limit }) };
}

/** The API a route pattern (or, for unmatched requests, a URL) belongs to. */
function apiOf(path: string, unmatched = true): string {
  if (path.startsWith('/api/v2/') || path.startsWith('/s/')) return 'v2';
  if (path.startsWith('/api/v3/')) return 'v3';
  if (path === '/health' || path.startsWith('/ready') || path === '/metrics') return 'ops';
  return unmatched ? 'none' : 'web';
}
