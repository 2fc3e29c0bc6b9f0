/**
 * Metrics of a child process (an Electrum or HTTP worker) shown by the parent's /metrics: the child records into a RelayMetrics
 * that sends what changed every second (counter increments, histogram observations, the current samples of its
 * sampled figures), and the parent replays them into its own registry (MetricsSink): counters and histograms add up,
 * sampled figures are summed over the children by label set. Each message carries its metrics' specs, so the parent
 * registers them on first sight.
 */
import type { CounterMetric, GaugeMetric, HistogramMetric, HistogramSpec, MetricLabels, MetricSample, Metrics, MetricSpec, SampledSpec } from '../../../core/index.js';

interface Spec {
  readonly kind: 'counter' | 'histogram' | 'gauge' | 'sampled';
  readonly spec: MetricSpec & { readonly buckets?: readonly number[]; readonly type?: 'gauge' | 'counter' };
}

export interface RelayMessage {
  readonly type: 'metrics';
  readonly specs: readonly Spec[];
  readonly counters: readonly [name: string, labels: MetricLabels, delta: number][];
  /** Per histogram and label set, the values observed (a label set is sent once, not once per observation). */
  readonly observations: readonly [name: string, labels: MetricLabels, values: readonly number[]][];
  readonly gauges: readonly [name: string, labels: MetricLabels, value: number][];
  readonly samples: readonly [name: string, samples: readonly MetricSample[]][];
}

/**
 * At most this many histogram observations a second are relayed (the rest are dropped, not queued): 800 KB of values.
 * An HTTP worker observes one per request, so this is past what one process answers (docs/benchmarks.md).
 */
const MAX_OBSERVATIONS = 100_000;

/** One series of a metric: its name and label set, as the key its pending figures are kept under. */
const seriesKey = (name: string, labels: MetricLabels): string => `${name}${JSON.stringify(labels)}`;

export class RelayMetrics implements Metrics {
  private readonly specs = new Map<string, Spec>();
  private counters = new Map<string, [string, MetricLabels, number]>();
  private observations = new Map<string, [string, MetricLabels, number[]]>();
  private observed = 0;
  private gauges = new Map<string, [string, MetricLabels, number]>();
  private readonly sampledFns = new Map<string, SampledSpec['sample']>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly send: (message: RelayMessage) => void, everyMs = 1000) {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  counter(spec: MetricSpec): CounterMetric {
    this.specs.set(spec.name, { kind: 'counter', spec });
    const add = (key: string, labels: MetricLabels, by: number): void => {
      const entry = this.counters.get(key);
      if (entry) entry[2] += by;
      else this.counters.set(key, [spec.name, labels, by]);
    };
    const inc = (labels: MetricLabels = {}, by = 1): void => add(seriesKey(spec.name, labels), labels, by);
    // A bound counter (a route's, on every request) makes its key once.
    const bind = (labels: MetricLabels): { inc(by?: number): void } => {
      const key = seriesKey(spec.name, labels);
      return { inc: (by = 1) => add(key, labels, by) };
    };
    return { inc, bind };
  }

  gauge(spec: MetricSpec): GaugeMetric {
    this.specs.set(spec.name, { kind: 'gauge', spec });
    return { set: (labels, value) => void this.gauges.set(seriesKey(spec.name, labels), [spec.name, labels, value]) };
  }

  histogram(spec: HistogramSpec): HistogramMetric {
    this.specs.set(spec.name, { kind: 'histogram', spec: { name: spec.name, help: spec.help, ...(spec.labels ? { labels: spec.labels } : {}), buckets: spec.buckets } });
    const add = (key: string, labels: MetricLabels, value: number): void => {
      if (this.observed >= MAX_OBSERVATIONS) return;
      this.observed++;
      const entry = this.observations.get(key);
      if (entry) entry[2].push(value);
      else this.observations.set(key, [spec.name, labels, [value]]);
    };
    const observe = (labels: MetricLabels, value: number): void => add(seriesKey(spec.name, labels), labels, value);
    const bind = (labels: MetricLabels): { observe(value: number): void } => {
      const key = seriesKey(spec.name, labels);
      return { observe: (value: number) => add(key, labels, value) };
    };
    return { observe, bind };
  }

  sampled(spec: SampledSpec): void {
    this.specs.set(spec.name, { kind: 'sampled', spec: { name: spec.name, help: spec.help, ...(spec.labels ? { labels: spec.labels } : {}), type: spec.type } });
    this.sampledFns.set(spec.name, spec.sample);
  }

  async flush(): Promise<void> {
    const samples: [string, MetricSample[]][] = [];
    for (const [name, sample] of this.sampledFns) samples.push([name, [...(await sample())]]);
    const message: RelayMessage = {
      type: 'metrics', specs: [...this.specs.values()], counters: [...this.counters.values()], observations: [...this.observations.values()], gauges: [...this.gauges.values()], samples,
    };
    this.counters = new Map();
    this.observations = new Map();
    this.observed = 0;
    this.gauges = new Map();
    this.send(message);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The parent's side: replays children's messages into `metrics`. */
export class MetricsSink {
  private readonly counters = new Map<string, CounterMetric>();
  private readonly histograms = new Map<string, HistogramMetric>();
  private readonly gauges = new Map<string, GaugeMetric>();
  /** Per sampled figure, per child, its last samples. */
  private readonly samples = new Map<string, Map<number, readonly MetricSample[]>>();

  constructor(private readonly metrics: Metrics) {}

  accept(child: number, message: RelayMessage): void {
    for (const { kind, spec } of message.specs) this.register(kind, spec);
    for (const [name, labels, delta] of message.counters) this.counters.get(name)?.inc(labels, delta);
    for (const [name, labels, values] of message.observations) {
      const histogram = this.histograms.get(name);
      if (histogram) for (const value of values) histogram.observe(labels, value);
    }
    for (const [name, labels, value] of message.gauges) this.gauges.get(name)?.set(labels, value);
    for (const [name, values] of message.samples) this.samples.get(name)?.set(child, values);
  }

  /** A child that ended: its samples no longer count. */
  forget(child: number): void {
    for (const byChild of this.samples.values()) byChild.delete(child);
  }

  private register(kind: Spec['kind'], spec: Spec['spec']): void {
    const base: MetricSpec = { name: spec.name, help: spec.help, ...(spec.labels ? { labels: spec.labels } : {}) };
    if (kind === 'counter' && !this.counters.has(spec.name)) this.counters.set(spec.name, this.metrics.counter(base));
    if (kind === 'histogram' && !this.histograms.has(spec.name)) this.histograms.set(spec.name, this.metrics.histogram({ ...base, buckets: spec.buckets ?? [] }));
    if (kind === 'gauge' && !this.gauges.has(spec.name)) this.gauges.set(spec.name, this.metrics.gauge(base));
    if (kind === 'sampled' && !this.samples.has(spec.name)) {
      const byChild = new Map<number, readonly MetricSample[]>();
      this.samples.set(spec.name, byChild);
      this.metrics.sampled({
        ...base, type: spec.type ?? 'gauge',
        sample: () => {
          const sums = new Map<string, MetricSample>();
          for (const values of byChild.values()) {
            for (const s of values) {
              const key = JSON.stringify(s.labels);
              sums.set(key, { labels: s.labels, value: (sums.get(key)?.value ?? 0) + s.value });
            }
          }
          return sums.values();
        },
      });
    }
  }
}
