/**
 * The Electrum server's figures for /metrics (docs/operations.md): requests and errors by method, connections by
 * transport, subscriptions, notifications and how long after their change they went out, what the limits refused, and
 * the answer cache's hits, misses and memory.
 * Counters are bound once per series, so a request costs a map lookup.
 */
import { LATENCY_BUCKETS, type Metrics } from '../core/infrastructure/metrics.js';
import type { NetworkId } from '../core/domain/network.js';
import type { SessionStats } from './sessions/electrum-session.js';
import type { SessionHost } from './sessions/session-host.js';

export interface ElectrumMetrics {
  statsFor(network: NetworkId): SessionStats;
  /** The hosts whose connections and subscriptions are sampled at scrape time. */
  watch(network: NetworkId, host: SessionHost): void;
}

export function electrumMetrics(metrics: Metrics): ElectrumMetrics {
  const requests = metrics.counter({ name: 'outpoint_electrum_requests_total', help: 'Electrum requests answered, by network and method.', labels: ['network', 'method'] });
  const errors = metrics.counter({ name: 'outpoint_electrum_request_errors_total', help: 'Electrum requests answered with an error, by network, method and JSON-RPC code.', labels: ['network', 'method', 'code'] });
  const refused = metrics.counter({ name: 'outpoint_electrum_refused_total', help: 'Electrum requests and connections refused by a limit, by network and limit.', labels: ['network', 'limit'] });
  const notifications = metrics.counter({ name: 'outpoint_electrum_notifications_total', help: 'Electrum scripthash status notifications written (one per subscriber).', labels: ['network'] });
  const latency = metrics.histogram({
    name: 'outpoint_electrum_notification_latency_seconds', help: 'From the event that changed a scripthash status to its notification, by network.', labels: ['network'], buckets: LATENCY_BUCKETS,
  });
  const hosts = new Map<NetworkId, SessionHost>();
  metrics.sampled({
    name: 'outpoint_electrum_connections', help: 'Open Electrum connections, by network and transport.', type: 'gauge', labels: ['network', 'transport'],
    sample: () => [...hosts].flatMap(([network, host]) => {
      const by = new Map<string, number>([['tcp', 0], ['ssl', 0], ['ws', 0], ['wss', 0]]);
      for (const s of host.sessions) by.set(s.transport.kind, by.get(s.transport.kind)! + 1);
      return [...by].map(([transport, value]) => ({ labels: { network, transport }, value }));
    }),
  });
  metrics.sampled({
    name: 'outpoint_electrum_subscriptions', help: 'Electrum scripthash subscriptions (all connections), by network.', type: 'gauge', labels: ['network'],
    sample: () => [...hosts].map(([network, host]) => ({ labels: { network }, value: host.subscriptions })),
  });
  for (const [what, value] of [['hits', (h: SessionHost) => h.answers.hits], ['misses', (h: SessionHost) => h.answers.misses]] as const) {
    metrics.sampled({
      name: `outpoint_electrum_answer_cache_${what}_total`, help: `Electrum balance, history and unspent requests ${what === 'hits' ? 'answered from' : 'not found in'} the answer cache, by network.`,
      type: 'counter', labels: ['network'], sample: () => [...hosts].map(([network, host]) => ({ labels: { network }, value: value(host) })),
    });
  }
  metrics.sampled({
    name: 'outpoint_electrum_answer_cache_bytes', help: 'Memory held by kept Electrum answers (all processes), by network.', type: 'gauge', labels: ['network'],
    sample: () => [...hosts].map(([network, host]) => ({ labels: { network }, value: host.answers.bytes })),
  });
  return {
    watch: (network, host) => void hosts.set(network, host),
    statsFor(network) {
      const byMethod = new Map<string, { inc(by?: number): void }>();
      const counter = (method: string) => {
        let bound = byMethod.get(method);
        if (!bound) byMethod.set(method, (bound = requests.bind({ network, method })));
        return bound;
      };
      const notified = notifications.bind({ network });
      const delay = latency.bind({ network });
      return {
        answered: (method) => counter(method).inc(),
        failed: (method, code) => errors.inc({ network, method, code }),
        refused: (n) => refused.inc({ network, limit: 'queued_requests' }, n),
        slowClosed: () => refused.inc({ network, limit: 'send_buffer' }),
        notified: (seconds, subscribers) => {
          notified.inc(subscribers);
          delay.observe(seconds);
        },
        connectionRefused: (reason) => refused.inc({ network, limit: reason === 'per_ip' ? 'connections_per_ip' : 'connections' }),
      };
    },
  };
}
