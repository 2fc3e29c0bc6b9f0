/**
 * The serving process's side of `[electrum] processes` > 1: it forks the Electrum workers (electrum-worker.ts) as a
 * Node cluster (their listeners share the ports; the cluster hands each connection to one worker in turn), forwards
 * them the changes off the event bus and SIGHUP's reload, shows their metrics in its own /metrics, replaces one that
 * dies, and stops them with itself.
 */
import cluster, { type Worker } from 'node:cluster';
import type { OutpointConfig } from '../../../config/index.js';
import type { Logger, Metrics } from '../../../core/index.js';
import type { ElectrumListener } from '../../../electrum/attach-electrum.js';
import type { ElectrumChange } from '../../../electrum/subscriptions/electrum-changes.js';
import type { ToWorker } from './electrum-worker.js';
import { MetricsSink, type RelayMessage } from '../processes/metrics-relay.js';

type FromWorker = RelayMessage | { readonly type: 'ready'; readonly listeners: ElectrumListener[] };

/** A worker that dies is replaced after this long (a crash loop does not spin). */
const RESPAWN_MS = 1000;

export class ElectrumCluster {
  private readonly workers = new Set<Worker>();
  private readonly sink: MetricsSink;
  private stopping = false;
  listeners: readonly ElectrumListener[] = [];

  constructor(private readonly config: OutpointConfig, private readonly logger: Logger, metrics: Metrics) {
    this.sink = new MetricsSink(metrics);
    // Compiled: the module beside this one; from the sources (tests, a checkout): the TypeScript one through tsx.
    const ts = import.meta.url.endsWith('.ts');
    cluster.setupPrimary({
      exec: new URL(`./electrum-worker.${ts ? 'ts' : 'js'}`, import.meta.url).pathname,
      execArgv: ts ? ['--import', 'tsx', ...process.execArgv] : process.execArgv,
      // Structured clone: scripts travel as bytes.
      serialization: 'advanced',
    });
  }

  async start(): Promise<void> {
    const ready = await Promise.all(Array.from({ length: this.config.electrum.processes }, () => this.fork()));
    this.listeners = ready[0] ?? [];
  }

  forward(change: ElectrumChange): void {
    const message: ToWorker = { type: 'change', change };
    for (const worker of this.workers) if (worker.isConnected()) worker.send(message);
  }

  reloadTls(): void {
    for (const worker of this.workers) if (worker.isConnected()) worker.send({ type: 'reload-tls' } satisfies ToWorker);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.workers].map((worker) => new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve();
      const timer = setTimeout(() => worker.process.kill('SIGKILL'), 10_000);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (worker.isConnected()) worker.send({ type: 'stop' } satisfies ToWorker);
      else worker.process.kill('SIGTERM');
    })));
  }

  /** A worker, once it listens (its bound listeners); rejects when it exits first. */
  private fork(): Promise<ElectrumListener[]> {
    const worker = cluster.fork({ OUTPOINT_ELECTRUM_WORKER_CONFIG: JSON.stringify(this.config) });
    this.workers.add(worker);
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'metrics') this.sink.accept(worker.id, message);
        else if (message.type === 'ready') {
          started = true;
          resolve(message.listeners);
        }
      });
      worker.once('exit', (code, signal) => {
        this.workers.delete(worker);
        this.sink.forget(worker.id);
        if (!started) return reject(new Error(`an Electrum worker process exited while starting (${signal ?? code})`));
        if (this.stopping) return;
        this.logger.error('an Electrum worker process ended; starting another', { code, signal });
        setTimeout(() => {
          if (!this.stopping) this.fork().catch((error: Error) => this.logger.error('an Electrum worker process did not start', { error: error.message }));
        }, RESPAWN_MS).unref();
      });
    });
  }
}
