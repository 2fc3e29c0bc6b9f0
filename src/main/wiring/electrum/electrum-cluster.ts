/**
 * The serving process's side of `[electrum] processes` > 1: it forks the Electrum workers (electrum-worker.ts) as a
 * Node cluster (their listeners share the ports; the cluster hands each connection to one worker in turn), forwards
 * them the changes off the event bus and SIGHUP's reload, shows their metrics in its own /metrics, replaces one that
 * dies, and stops them with itself (processes/worker-pool.ts).
 */
import type { OutpointConfig } from '../../../config/index.js';
import type { Logger, Metrics } from '../../../core/index.js';
import type { ElectrumListener } from '../../../electrum/attach-electrum.js';
import type { ElectrumChange } from '../../../electrum/subscriptions/electrum-changes.js';
import type { ToWorker } from './electrum-worker.js';
import { MetricsSink, type RelayMessage } from '../processes/metrics-relay.js';
import { WorkerPool } from '../processes/worker-pool.js';

type FromWorker = RelayMessage | { readonly type: 'ready'; readonly listeners: ElectrumListener[] };

/** A worker still answering this long after it was told to stop is killed. */
const STOP_KILL_MS = 10_000;

export class ElectrumCluster {
  private readonly pool: WorkerPool<ElectrumListener[], FromWorker>;
  private readonly sink: MetricsSink;
  listeners: readonly ElectrumListener[] = [];

  constructor(private readonly config: OutpointConfig, logger: Logger, metrics: Metrics) {
    this.sink = new MetricsSink(metrics);
    this.pool = new WorkerPool<ElectrumListener[], FromWorker>({
      label: 'Electrum', module: 'electrum-worker', base: import.meta.url, logger, stopKillMs: STOP_KILL_MS,
      env: () => ({ OUTPOINT_ELECTRUM_WORKER_CONFIG: JSON.stringify(this.config) }),
      stopMessage: { type: 'stop' } satisfies ToWorker,
      attach: (worker, ready) => (message) => {
        if (message.type === 'metrics') this.sink.accept(worker.id, message);
        else if (message.type === 'ready') ready(message.listeners);
      },
      detach: (worker) => this.sink.forget(worker.id),
    });
  }

  async start(): Promise<void> {
    const ready = await this.pool.start(this.config.electrum.processes);
    this.listeners = ready[0] ?? [];
  }

  forward(change: ElectrumChange): void {
    this.pool.send({ type: 'change', change } satisfies ToWorker);
  }

  reloadTls(): void {
    this.pool.send({ type: 'reload-tls' } satisfies ToWorker);
  }

  stop(): Promise<void> {
    return this.pool.stop();
  }
}
