/**
 * What metrics cost: per HTTP request, the onResponse hook (a counter and a latency histogram observation through
 * core's Metrics over prom-client) plus the request id, against the same Fastify route without them, in the same
 * run (app.inject, in process, so the hook's share is not hidden behind sockets); and one /metrics scrape with a
 * realistic number of series (60 routes × 3 statuses, process metrics) in milliseconds.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { silentLogger } from '../src/core/index.js';
import { installHttpMetrics } from '../src/http/plugins/http-metrics.plugin.js';
import { installRequestLog, requestId } from '../src/http/plugins/request-id.plugin.js';
import { PromMetrics } from '../src/metrics/prom-metrics.js';

const N = Number(process.env['BENCH_METRICS_REQUESTS'] ?? 20_000);

function app(metered: boolean, metrics: PromMetrics): FastifyInstance {
  const app = Fastify({ logger: false, ...(metered ? { genReqId: requestId } : {}) }) as unknown as FastifyInstance;
  if (metered) {
    installRequestLog(app, silentLogger);
    installHttpMetrics(app, metrics);
  }
  app.get('/api/v2/get_tx/:network/:txid', async (request) => ({ status: 'success', data: request.params }));
  return app;
}

async function perRequest(target: FastifyInstance): Promise<number> {
  const once = () => target.inject({ method: 'GET', url: '/api/v2/get_tx/LTC/ab' });
  for (let i = 0; i < 1_000; i++) await once();
  const started = performance.now();
  for (let i = 0; i < N; i++) await once();
  return ((performance.now() - started) * 1000) / N;
}

export async function run(): Promise<void> {
  const metrics = new PromMetrics();
  const bare = app(false, metrics);
  const metered = app(true, metrics);
  console.log(`metrics: ${N} sequential GETs through app.inject, best of 3`);
  const runs: [number, number][] = [];
  for (let i = 0; i < 3; i++) runs.push([await perRequest(bare), await perRequest(metered)]);
  const b = Math.min(...runs.map((r) => r[0]));
  const m = Math.min(...runs.map((r) => r[1]));
  console.log(`  bare route ${b.toFixed(1)} µs   with request id + metrics ${m.toFixed(1)} µs   = ${(m / b).toFixed(2)} × (+${(m - b).toFixed(1)} µs)`);

  const scrape = new PromMetrics();
  const requests = scrape.counter({ name: 'outpoint_http_requests_total', help: 'h', labels: ['api', 'method', 'route', 'status'] });
  const duration = scrape.histogram({ name: 'outpoint_http_request_duration_seconds', help: 'h', labels: ['api', 'method', 'route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });
  for (let r = 0; r < 60; r++) {
    for (const status of [200, 404, 429]) requests.inc({ api: 'v2', method: 'GET', route: `/api/v2/route${r}/:a`, status });
    duration.observe({ api: 'v2', method: 'GET', route: `/api/v2/route${r}/:a` }, 0.003);
  }
  for (let i = 0; i < 20; i++) await scrape.render();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < 200; i++) bytes = (await scrape.render()).length;
  console.log(`  /metrics render with 60 routes: ${((performance.now() - started) / 200).toFixed(2)} ms, ${(bytes / 1024).toFixed(0)} KiB`);
  await bare.close();
  await metered.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
