import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PromMetrics } from './prom-metrics.js';
import { startMetricsServer } from './metrics-server.js';

void test('counters, gauges, histograms and bound series in Prometheus text; sampled figures are read at each scrape', async () => {
  const metrics = new PromMetrics({ processMetrics: false });
  const counter = metrics.counter({ name: 'x_requests_total', help: 'requests', labels: ['route'] });
  counter.inc({ route: '/a' });
  counter.bind({ route: '/a' }).inc(2);
  metrics.gauge({ name: 'x_height', help: 'height', labels: ['network'] }).set({ network: 'LTC' }, 7);
  const histogram = metrics.histogram({ name: 'x_seconds', help: 'time', labels: ['op'], buckets: [0.1, 1] });
  histogram.observe({ op: 'w' }, 0.05);
  histogram.bind({ op: 'w' }).observe(0.5);
  let kinds: Record<string, number> = { address: 3, ticker: 1 };
  metrics.sampled({ name: 'x_subscriptions', help: 'subs', type: 'gauge', labels: ['kind'], sample: () => Object.entries(kinds).map(([kind, value]) => ({ labels: { kind }, value })) });
  metrics.sampled({ name: 'x_sent_total', help: 'sent', type: 'counter', sample: async () => [{ labels: {}, value: 42 }] });
  const text = await metrics.render();
  for (const line of [
    '# TYPE x_requests_total counter', 'x_requests_total{route="/a"} 3', 'x_height{network="LTC"} 7',
    'x_seconds_bucket{le="0.1",op="w"} 1', 'x_seconds_bucket{le="1",op="w"} 2', 'x_seconds_count{op="w"} 2',
    'x_subscriptions{kind="address"} 3', '# TYPE x_sent_total counter', 'x_sent_total 42',
  ]) {
    assert.ok(text.split('\n').includes(line), `${line} in\n${text}`);
  }
  kinds = { blockchain: 2 };
  const next = await metrics.render();
  assert.ok(next.includes('x_subscriptions{kind="blockchain"} 2'));
  assert.ok(!next.includes('kind="address"'), 'a series gone from the sample is gone from the output');
  assert.match(metrics.contentType, /^text\/plain; version=0\.0\.4/);
});

void test('process figures by default; [metrics] port serves /metrics and /health and nothing else', async () => {
  const metrics = new PromMetrics();
  const server = await startMetricsServer(metrics, '127.0.0.1', 0);
  try {
    const scrape = await fetch(`${server.url}/metrics`);
    assert.equal(scrape.status, 200);
    const text = await scrape.text();
    assert.match(text, /\nprocess_resident_memory_bytes \d+\n/);
    assert.match(text, /\nnodejs_eventloop_lag_p99_seconds /);
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
    assert.equal((await fetch(`${server.url}/api/v2/get_info`)).status, 404);
    assert.equal((await fetch(`${server.url}/metrics`, { method: 'POST' })).status, 405);
  } finally {
    await server.close();
  }
});
