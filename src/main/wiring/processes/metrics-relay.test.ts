import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MetricLabels, Metrics, MetricSample } from '../../../core/index.js';
import { MetricsSink, RelayMetrics, type RelayMessage } from './metrics-relay.js';

/** A registry that records what reaches it. */
function recording(): { metrics: Metrics; counts: Map<string, number>; observed: number[]; sampled: Map<string, () => Iterable<MetricSample> | Promise<Iterable<MetricSample>>> } {
  const counts = new Map<string, number>();
  const observed: number[] = [];
  const sampled = new Map<string, () => Iterable<MetricSample> | Promise<Iterable<MetricSample>>>();
  const key = (name: string, labels: MetricLabels = {}): string => `${name}${JSON.stringify(labels)}`;
  const metrics: Metrics = {
    counter: (spec) => {
      const inc = (labels: MetricLabels = {}, by = 1): void => void counts.set(key(spec.name, labels), (counts.get(key(spec.name, labels)) ?? 0) + by);
      return { inc, bind: (labels) => ({ inc: (by) => inc(labels, by) }) };
    },
    gauge: () => ({ set: () => undefined }),
    histogram: () => ({ observe: (_l, v) => void observed.push(v), bind: () => ({ observe: (v) => void observed.push(v) }) }),
    sampled: (spec) => void sampled.set(spec.name, spec.sample),
  };
  return { metrics, counts, observed, sampled };
}

describe('metrics of worker processes', () => {
  it('adds counters and histograms up and sums sampled figures over the workers', async () => {
    const parent = recording();
    const sink = new MetricsSink(parent.metrics);
    const workers = [1, 2].map((id) => {
      let connections = id * 10;
      const relay = new RelayMetrics((m: RelayMessage) => sink.accept(id, m), 60_000);
      const requests = relay.counter({ name: 'req_total', help: 'r', labels: ['method'] }).bind({ method: 'ping' });
      const latency = relay.histogram({ name: 'lat', help: 'l', buckets: [1] });
      relay.sampled({ name: 'conns', help: 'c', type: 'gauge', sample: () => [{ labels: { transport: 'tcp' }, value: connections }] });
      return { relay, requests, latency, drop: () => (connections = 0) };
    });
    workers[0]!.requests.inc();
    workers[0]!.requests.inc(2);
    workers[1]!.requests.inc();
    workers[1]!.latency.observe({}, 0.5);
    workers[1]!.latency.observe({}, 0.25);
    workers[0]!.latency.bind({}).observe(2);
    for (const w of workers) await w.relay.flush();
    assert.equal(parent.counts.get('req_total{"method":"ping"}'), 4);
    assert.deepEqual(parent.observed.sort((a, b) => a - b), [0.25, 0.5, 2]);
    assert.deepEqual([...(await parent.sampled.get('conns')!())], [{ labels: { transport: 'tcp' }, value: 30 }]);
    // A flush sends what changed since the last one, not the totals again.
    workers[0]!.requests.inc();
    await workers[0]!.relay.flush();
    assert.equal(parent.counts.get('req_total{"method":"ping"}'), 5);
    sink.forget(2);
    assert.deepEqual([...(await parent.sampled.get('conns')!())], [{ labels: { transport: 'tcp' }, value: 10 }], 'an ended worker no longer counts');
    for (const w of workers) w.relay.stop();
  });
});
