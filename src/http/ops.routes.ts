/**
 * Operations endpoints for load balancers, orchestrators and Prometheus (docs/operations.md):
 * - GET /health: 200 while the process serves requests; touches nothing else.
 * - GET /ready/{NETWORK}: 200 when this process can answer for the network, else 503 with the reason (codes and
 *   figures, never an error's text: these are public on the API port).
 * - GET /ready: 200 when the store answers and at least one network is ready; the body lists every network.
 * - GET /metrics: Prometheus text (only when metrics are not on a port of their own).
 * Readiness reads what the background health checks kept: it never calls the node or the store itself.
 * None of these is rate limited (probes come often, from few addresses).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isNetworkId } from '../core/domain/network.js';
import type { MetricsExposition } from '../core/infrastructure/metrics.js';
import type { HealthMonitor } from '../services/health/health-monitor.js';
import type { NetworkReadiness } from '../services/health/readiness.js';
import type { RouteTypes } from './shared/schema-kit.js';

export interface OpsDeps {
  readonly health: HealthMonitor;
  /** Serve /metrics on this port; null when it has a port of its own ([metrics] port). */
  readonly metrics: MetricsExposition | null;
  /** Where this process's Electrum server listens (docs/electrum.md): listed by /ready and /ready/{NETWORK}. */
  readonly electrum?: () => readonly { readonly network: string; readonly transport: string; readonly address: string }[];
}

const EXEMPT = { config: { rateLimitExempt: true } };
/** Any text: an unknown network answers 404 with the body below, not a validation error. */
const READY_PARAMS = { type: 'object', required: ['network'], properties: { network: { type: 'string' } } } as const;

export function opsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  const startedAt = Date.now();
  // The network's Electrum listeners as `transport: "host:port"` (the configured addresses, as bound).
  const electrumOf = (network: string): Record<string, string> =>
    Object.fromEntries((deps.electrum?.() ?? []).filter((l) => l.network === network).map((l) => [l.transport, l.address]));
  app.get('/health', EXEMPT, async (_request, reply) =>
    noStore(reply).send({ status: 'ok', uptime_seconds: Math.floor((Date.now() - startedAt) / 1000) }),
  );

  app.get('/ready', EXEMPT, async (_request, reply) => {
    const networks = deps.health.all();
    const store = deps.health.store;
    const storeOk = store.error === null;
    const ready = storeOk && networks.some((n) => n.ready);
    // Codes only: these bodies are public, and an error's text can name internal hosts and ports (the log has it).
    const reason = !storeOk ? 'store_unreachable' : networks.length === 0 ? 'no_networks' : ready ? null : 'no_network_ready';
    return noStore(reply)
      .code(ready ? 200 : 503)
      .send({
        ready,
        reason,
        store: {
          reachable: storeOk,
          error: store.errorCode === 'not_checked' ? null : store.errorCode,
          // [store] read_urls: which replicas requests read from now, and why the others not. Public: by their place
          // in read_urls (no internal host names) and a code (no error text); names and texts are in /metrics and the log.
          replicas: deps.health.replicas().map((r, i) => ({ replica: i + 1, in_use: r.inUse, up: r.up, lag_ms: r.lagMs, reason: r.reasonCode })),
        },
        networks: Object.fromEntries(networks.map((n) => [n.network, { ...present(n), electrum: electrumOf(n.network) }])),
      });
  });

  app.withTypeProvider<RouteTypes>().get('/ready/:network', { ...EXEMPT, schema: { params: READY_PARAMS } }, async (request, reply) => {
    const id = request.params.network.toUpperCase();
    const readiness = isNetworkId(id) ? deps.health.readiness(id) : null;
    if (!readiness) {
      return noStore(reply).code(404).send({ ready: false, reason: 'unknown_network', message: `${request.params.network} is not a network this process serves` });
    }
    return noStore(reply).code(readiness.ready ? 200 : 503).send({ ...present(readiness), electrum: electrumOf(readiness.network) });
  });

  const exposition = deps.metrics;
  if (exposition) {
    app.get('/metrics', EXEMPT, async (_request, reply) => noStore(reply).type(exposition.contentType).send(await exposition.render()));
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}

function present(n: NetworkReadiness): Record<string, unknown> {
  return {
    network: n.network,
    ready: n.ready,
    reason: n.reason,
    message: n.message,
    index_height: n.indexHeight,
    node_height: n.nodeHeight,
    lag_blocks: n.lagBlocks,
    max_lag_blocks: n.maxLagBlocks,
    sync_phase: n.syncPhase,
    sync_eta_seconds: n.syncEtaSeconds,
    node_error: n.nodeError,
    node_answered_at: n.nodeAnsweredAt,
  };
}
