/**
 * Exchange polling figures for /metrics: how old each source's last answer is and how often it failed. Only the
 * process that polls (the indexing one) has them; API-only replicas read prices from the store.
 */
import type { Metrics } from '../core/infrastructure/metrics.js';
import type { Market } from './create-market.js';

export function registerMarketMetrics(metrics: Metrics, market: Pick<Market, 'status'>, nowMs: () => number = Date.now): void {
  const startedAt = nowMs();
  metrics.sampled({
    name: 'outpoint_market_source_age_seconds',
    help: "Seconds since the exchange's last successful answer (since polling started, before its first).",
    type: 'gauge',
    labels: ['source'],
    sample: () => market.status().map((s) => ({ labels: { source: s.id }, value: (nowMs() - (s.lastSuccessAt ?? startedAt)) / 1000 })),
  });
  metrics.sampled({
    name: 'outpoint_market_source_up',
    help: '1 when the last poll of the exchange succeeded, else 0.',
    type: 'gauge',
    labels: ['source'],
    sample: () => market.status().map((s) => ({ labels: { source: s.id }, value: s.lastSuccessAt !== null && s.consecutiveFailures === 0 ? 1 : 0 })),
  });
  metrics.sampled({
    name: 'outpoint_market_source_failures_total',
    help: 'Failed polls of the exchange (errors, timeouts, unusable answers).',
    type: 'counter',
    labels: ['source'],
    sample: () => market.status().map((s) => ({ labels: { source: s.id }, value: s.failuresTotal })),
  });
}
