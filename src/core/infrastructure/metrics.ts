/**
 * What the layers need to publish figures for operators (Prometheus at /metrics): counters, gauges, histograms and
 * figures sampled at scrape time from state another component keeps. Main passes one registry to every layer; the
 * driver (src/metrics/, prom-client) is the only code that knows the exposition format. Names follow Prometheus
 * conventions: `outpoint_` prefix, base units (seconds, bytes), `_total` on counters; docs/operations.md lists them.
 */

/** Label values; numbers are written in decimal. Keep the set of values small (routes, not URLs). */
export type MetricLabels = Readonly<Record<string, string | number>>;

export interface MetricSpec {
  readonly name: string;
  readonly help: string;
  /** Every label name the metric's samples carry (all samples carry all of them). */
  readonly labels?: readonly string[];
}

export interface HistogramSpec extends MetricSpec {
  /** Upper bounds of the buckets, ascending, in the metric's unit. */
  readonly buckets: readonly number[];
}

export interface MetricSample {
  readonly labels: MetricLabels;
  readonly value: number;
}

/** A figure read when metrics are scraped: state kept elsewhere (a gauge) or a count another component owns (a counter). */
export interface SampledSpec extends MetricSpec {
  readonly type: 'gauge' | 'counter';
  readonly sample: () => Iterable<MetricSample> | Promise<Iterable<MetricSample>>;
}

export interface CounterMetric {
  inc(labels?: MetricLabels, by?: number): void;
  /** The series of these labels, resolved once: for hot paths that count the same series again and again. */
  bind(labels: MetricLabels): { inc(by?: number): void };
}

export interface GaugeMetric {
  set(labels: MetricLabels, value: number): void;
}

export interface HistogramMetric {
  observe(labels: MetricLabels, value: number): void;
  /** The series of these labels, resolved once (see CounterMetric.bind). */
  bind(labels: MetricLabels): { observe(value: number): void };
}

export interface Metrics {
  counter(spec: MetricSpec): CounterMetric;
  gauge(spec: MetricSpec): GaugeMetric;
  histogram(spec: HistogramSpec): HistogramMetric;
  sampled(spec: SampledSpec): void;
}

/** The registry as the /metrics endpoint sees it: the text to answer and its content type. */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}

/** Records nothing: for tests and tools that run components without a registry. */
const ignore = (): void => undefined;
export const noMetrics: Metrics = {
  counter: () => ({ inc: ignore, bind: () => ({ inc: ignore }) }),
  gauge: () => ({ set: ignore }),
  histogram: () => ({ observe: ignore, bind: () => ({ observe: ignore }) }),
  sampled: ignore,
};

/** Seconds, for latency histograms: from 1 ms to 10 s. */
export const LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
