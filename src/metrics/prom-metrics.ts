/**
 * The Metrics registry of core over prom-client, and its Prometheus text exposition. One registry per process (main
 * makes it); each has its own prom-client Registry, so tests can run several in one process. Process figures
 * (resident memory, heap, event-loop delay percentiles, open descriptors) come from prom-client's default collectors.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  HistogramSpec,
  MetricLabels,
  MetricSpec,
  Metrics,
  MetricsExposition,
  SampledSpec,
} from '../core/infrastructure/metrics.js';

export interface PromMetricsOptions {
  /** Process and Node.js runtime collectors (default true). */
  readonly processMetrics?: boolean;
  /** Event-loop delay sampling resolution in ms (default 10, prom-client's). */
  readonly eventLoopPrecisionMs?: number;
}

export class PromMetrics implements Metrics, MetricsExposition {
  private readonly registry = new Registry();

  constructor(options: PromMetricsOptions = {}) {
    if (options.processMetrics !== false) {
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: options.eventLoopPrecisionMs ?? 10 });
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  counter(spec: MetricSpec): CounterMetric {
    const counter = new Counter({ ...base(spec), registers: [this.registry] });
    return {
      inc: (labels, by) => counter.inc(values(labels), by ?? 1),
      bind: (labels) => {
        const child = counter.labels(values(labels));
        return { inc: (by) => child.inc(by ?? 1) };
      },
    };
  }

  gauge(spec: MetricSpec): GaugeMetric {
    const gauge = new Gauge({ ...base(spec), registers: [this.registry] });
    return { set: (labels, value) => gauge.set(values(labels), value) };
  }

  histogram(spec: HistogramSpec): HistogramMetric {
    const histogram = new Histogram({ ...base(spec), buckets: [...spec.buckets], registers: [this.registry] });
    return {
      observe: (labels, value) => histogram.observe(values(labels), value),
      bind: (labels) => {
        const child = histogram.labels(values(labels));
        return { observe: (value) => child.observe(value) };
      },
    };
  }

  /**
   * Sampled at every scrape: the previous samples are cleared first, so a label set that disappeared (a closed
   * channel type, a removed source) disappears from the output too.
   */
  sampled(spec: SampledSpec): void {
    if (spec.type === 'gauge') {
      new Gauge({
        ...base(spec),
        registers: [this.registry],
        async collect() {
          const samples = await spec.sample();
          this.reset();
          for (const s of samples) this.set(values(s.labels), s.value);
        },
      });
      return;
    }
    new Counter({
      ...base(spec),
      registers: [this.registry],
      async collect() {
        const samples = await spec.sample();
        this.reset();
        for (const s of samples) this.inc(values(s.labels), s.value);
      },
    });
  }
}

function base(spec: MetricSpec): { name: string; help: string; labelNames: string[] } {
  return { name: spec.name, help: spec.help, labelNames: [...(spec.labels ?? [])] };
}

function values(labels: MetricLabels | undefined): LabelValues<string> {
  return (labels ?? {}) as LabelValues<string>;
}
