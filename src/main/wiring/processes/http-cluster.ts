/**
 * The serving process's side of `[http] processes` > 1 (docs/operations.md, "HTTP on several cores"): it forks the
 * HTTP workers (http-worker.ts) as a Node cluster (they share the port; the cluster hands each new connection to
 * one worker in turn), forwards them its event bus, SIGHUP's reload and where the Electrum listeners are, answers
 * their counter calls (counter-host.ts: one count per client whichever worker serves it) and shows their metrics in
 * its /metrics. A worker that dies is replaced after a second; the workers stop with this process (and by
 * themselves when it is gone: their IPC channel closes).
 */
import type { Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Drivers } from '../drivers.js';
import type { HttpServing } from '../http-part.js';
import { loadSecretKey } from '../secret-key.js';
import { CounterHost } from './counter-host.js';
import { forwardEvents } from './event-forwarder.js';
import { processCounters } from './http-counters.js';
import { TurnBatch, type CallMessage, type CallsMessage, type ReplyMessage } from './ipc-calls.js';
import { MetricsSink, type RelayMessage } from './metrics-relay.js';
import type { ElectrumListeners, ToHttpWorker } from './http-worker.js';
import { WorkerPool } from './worker-pool.js';

type FromWorker = RelayMessage | CallsMessage | { readonly type: 'ready'; readonly address: AddressInfo };

/** A worker still answering this long after it was told to stop is killed. */
const STOP_KILL_MS = 15_000;
/**
 * A worker not heard from for this long (it sends its metrics every second) is stuck, its event loop blocked: it is
 * killed and replaced, its clients reconnect. Meanwhile Node queues what is sent to it (each event batch) in this
 * process's memory: the bound on that queue is what the bus publishes in this time.
 */
const STUCK_MS = Number(process.env['OUTPOINT_TEST_HTTP_WORKER_STUCK_MS'] ?? 30_000); // the variable: a testing aid only

export class HttpCluster implements HttpServing {
  readonly name = 'http workers';
  listeningUrl: string | null = null;
  private readonly pool: WorkerPool<AddressInfo, FromWorker>;
  /** When each worker (by id) last sent anything. */
  private readonly heard = new Map<number, number>();
  private readonly watchdog = setInterval(() => this.endStuck(), STUCK_MS / 6);
  private readonly sink: MetricsSink;
  private host: CounterHost | null = null;
  private unfollow: (() => void) | null = null;

  constructor(private readonly drivers: Drivers, private readonly electrumListeners: () => ElectrumListeners = () => []) {
    this.sink = new MetricsSink(drivers.observability.metrics);
    this.watchdog.unref();
    this.pool = new WorkerPool<AddressInfo, FromWorker>({
      label: 'HTTP', module: 'http-worker', base: import.meta.url, logger: drivers.logger, stopKillMs: STOP_KILL_MS,
      env: () => ({ OUTPOINT_HTTP_WORKER_CONFIG: JSON.stringify(drivers.config) }),
      stopMessage: { type: 'stop' } satisfies ToHttpWorker,
      attach: (worker, ready) => this.attach(worker, ready),
      detach: (worker) => {
        this.heard.delete(worker.id);
        this.sink.forget(worker.id);
        this.host?.forget(worker.id);
      },
    });
  }

  async start(): Promise<void> {
    const { config, logger, store, bus, observability } = this.drivers;
    // Made here once, before the workers read it (each would otherwise race to make it).
    if (config.accounts.secretKey === null) loadSecretKey(config, logger);
    this.host = new CounterHost(processCounters(config, logger), store, {
      renderMetrics: () => observability.metrics.render(),
      accountsChanged: () => this.broadcast({ type: 'accounts-changed' }),
      keyFailure: (from, ip) => this.broadcast({ type: 'key-failure', ip }, from),
    });
    this.unfollow = forwardEvents(bus, (message) => this.broadcast(message), (error) => logger.error('http workers: events not forwarded', { error: error.message }));
    const ready = await this.pool.start(config.http.processes);
    const address = ready[0]!;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const scheme = config.http.tls ? 'https' : 'http';
    if (config.http.port === 0 || config.http.publicUrl === `${scheme}://${config.http.host}:${config.http.port}`) {
      this.listeningUrl = `${scheme}://${host}:${address.port}`;
    }
    logger.info('http listening', { url: `${scheme}://${host}:${address.port}`, processes: config.http.processes, pids: this.pids });
    const p2p = config.networks.filter((n) => n.p2p.enabled).map((n) => n.id);
    if (p2p.length > 0) {
      logger.warn('http workers answer confidence from the local model: the P2P listener\'s sightings stay in this process (docs/operations.md, "HTTP on several cores")', { networks: p2p });
    }
  }

  /** SIGHUP: every worker re-reads the certificate. */
  reloadTls(): void {
    this.broadcast({ type: 'reload-tls' });
  }

  /** The Electrum listeners started (after HTTP): /ready on every worker lists them. */
  shareElectrumListeners(): void {
    this.broadcast({ type: 'electrum', listeners: this.electrumListeners() });
  }

  /** Process ids of the workers now (tests, the start line). */
  get pids(): number[] {
    return this.pool.pids;
  }

  async stop(): Promise<void> {
    clearInterval(this.watchdog);
    this.unfollow?.();
    // Each worker stops taking connections, answers what is in flight, closes its websockets, then exits.
    await this.pool.stop();
    await this.host?.close();
  }

  /** To every worker (but the one `except` names). */
  private broadcast(message: ToHttpWorker, except?: number): void {
    this.pool.send(message, except);
  }

  private endStuck(): void {
    const now = Date.now();
    for (const worker of this.pool.workers) {
      if (now - (this.heard.get(worker.id) ?? now) <= STUCK_MS || worker.isDead()) continue;
      this.drivers.logger.error('an HTTP worker process has said nothing for too long; ending it', { pid: worker.process.pid, seconds: STUCK_MS / 1000 });
      this.heard.delete(worker.id);
      worker.process.kill('SIGKILL');
    }
  }

  /** A new worker's messages: metrics, counter calls, and `ready` once it listens (its bound address). */
  private attach(worker: Worker, ready: (address: AddressInfo) => void): (message: FromWorker) => void {
    const replies = new TurnBatch<ReplyMessage>((batch) => {
      if (worker.isConnected()) worker.send({ type: 'replies', replies: batch } satisfies ToHttpWorker);
    });
    return (message) => {
      this.heard.set(worker.id, Date.now());
      if (message.type === 'metrics') this.sink.accept(worker.id, message);
      else if (message.type === 'calls') for (const call of message.calls) void this.answer(worker.id, call, replies);
      else if (message.type === 'ready') {
        worker.send({ type: 'electrum', listeners: this.electrumListeners() } satisfies ToHttpWorker);
        ready(message.address);
      }
    };
  }

  private async answer(worker: number, call: CallMessage, replies: TurnBatch<ReplyMessage>): Promise<void> {
    const reply = await this.host!.answer(worker, call);
    if (reply) replies.add(reply);
  }
}
