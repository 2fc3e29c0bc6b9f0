/**
 * Metrics, health checks and where /metrics is served, for `serve` and `index` (docs/operations.md). One registry
 * per process; each layer registers its own figures through core's Metrics interface.
 */
import type { OutpointConfig } from '../../config/index.js';
import type { ChainStore, Logger, MetricsExposition } from '../../core/index.js';
import { HealthMonitor } from '../../services/health/health-monitor.js';
import { registerHealthMetrics } from '../../services/health/health-metrics.js';
import { storeWriteMetrics, type StoreWriteMetrics } from '../../indexer/timed-store.js';
import { PromMetrics } from '../../metrics/prom-metrics.js';
import { startMetricsServer, type MetricsServer } from '../../metrics/metrics-server.js';
import { RpcClient } from '../../node/rpc/rpc-client.js';
import { VERSION } from './version.js';

export class Observability {
  readonly metrics = new PromMetrics();
  readonly health: HealthMonitor;
  readonly storeWrites: StoreWriteMetrics;
  private readonly probeClients: RpcClient[];
  private server: MetricsServer | null = null;

  constructor(
    private readonly config: OutpointConfig,
    store: ChainStore,
    private readonly logger: Logger,
  ) {
    // A client per node for the checks alone: one socket, no retries, the check's timeout, so a hung node holds
    // one probe socket and never the sockets API requests use.
    this.probeClients = config.networks.map(
      (n) => new RpcClient({ url: n.rpcUrl, ...(n.rpcCookie ? { cookieFile: n.rpcCookie } : {}), timeoutMs: config.health.timeoutMs, retries: 0, maxSockets: 1 }),
    );
    const replicas = store.readReplicas();
    this.health = new HealthMonitor(
      // With read replicas the store counts as up while the database this process reads from answers.
      () => (replicas ? replicas.scope.run(() => store.schemaVersion()) : store.schemaVersion()),
      config.networks.map((n, i) => {
        const reader = store.network(n.id);
        const rpc = this.probeClients[i]!;
        return { id: n.id, node: { getBlockCount: () => rpc.call<number>('getblockcount') }, index: reader, syncStatus: () => reader.getSyncStatus() };
      }),
      { maxLagBlocks: config.health.maxLagBlocks, intervalMs: config.health.checkIntervalMs, timeoutMs: config.health.timeoutMs, logger, replicas },
    );
    this.storeWrites = storeWriteMetrics(this.metrics);
    registerHealthMetrics(this.metrics, this.health);
    this.metrics.sampled({
      name: 'outpoint_build_info',
      help: 'Always 1; the labels say which Outpoint and Node.js versions run.',
      type: 'gauge',
      labels: ['version', 'nodejs'],
      sample: () => [{ labels: { version: VERSION, nodejs: process.version }, value: 1 }],
    });
  }

  /** /metrics on the API port, or null when it has a port of its own. */
  get apiExposition(): MetricsExposition | null {
    return this.config.metrics.listen ? null : this.metrics;
  }

  async start(): Promise<void> {
    this.health.start();
    const listen = this.config.metrics.listen;
    if (listen) {
      this.server = await startMetricsServer(this.metrics, listen.host, listen.port);
      this.logger.info('metrics listening', { url: `${this.server.url}/metrics` });
    }
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
    await this.health.stop();
    for (const client of this.probeClients) client.close();
  }
}
