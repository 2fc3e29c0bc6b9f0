import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { OutpointConfig } from '../../config/index.js';
import { ApiDocuments } from '../../core/infrastructure/api-documents.js';
import { MemoryEventBus, type ChainStore, type EventBus, type Logger, type NetworkId } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { buildHttpApp } from './http-wiring.js';
import { replaceTlsCredentials, type TlsCredentials } from '../../http/tls.js';
import type { ServerLimits } from '../../http/server-limits.js';
import { createMarket, type Market } from '../../market/create-market.js';
import { RpcBroadcaster } from '../../node/rpc-broadcaster.js';
import { RpcChainSource } from '../../node/rpc-chain-source.js';
import { RpcFeeSource } from '../../node/rpc-fee-source.js';
import { RpcMempoolPackageSource } from '../../node/rpc-mempool-package-source.js';
import { RpcMempoolSource } from '../../node/rpc-mempool-source.js';
import type { RpcClient } from '../../node/rpc/rpc-client.js';
import type { NetworkMap } from '../../services/shared/network-registry.js';
import { attachRealtime, type RealtimeHandle } from '../../realtime/attach-realtime.js';
import { registerRealtimeMetrics } from '../../realtime/realtime-metrics.js';
import { registerMarketMetrics } from '../../market/market-metrics.js';
import { createRedisEventBus } from '../../redis/redis-event-bus.js';
import { EventLogEntries } from '../../realtime/channels/event-log-entries.js';
import { EventLogPruner } from '../../services/events/event-log-pruner.js';
import { LoggedEventBus } from '../../services/events/logged-event-bus.js';
import { WebhookDispatcher } from '../../services/webhooks/webhook-dispatcher.js';
import { WebhookIndex } from '../../services/webhooks/webhook-index.js';
import { WebhookLimits } from '../../services/webhooks/webhook-limits.js';
import { WebhookMatcher } from '../../services/webhooks/webhook-matcher.js';
import { tappedBus } from '../../services/webhooks/tapped-bus.js';
import { WebhookHttpSender } from '../../webhooks-http/webhook-http-sender.js';
import { createNetworkRuntime, type NetworkRuntime } from './network-runtime.js';
import { ElectrumRuntime } from './electrum-wiring.js';
import { waitForConfiguredNode } from './node-check.js';
import { applyRawTxMode } from './raw-tx-mode.js';
import { Observability } from './observability.js';
import { createWebLayer } from './web-layer.js';
import { openStore } from '../stores/open-store.js';
import { warnAboutSharedFiles } from '../stores/private-files.js';

export interface RuntimeOptions {
  /** Run the indexers (default true). API-only replicas of a PostgreSQL deployment turn them off. */
  readonly indexers?: boolean;
  /** Serve the HTTP APIs (default true; `outpoint index` turns it off). */
  readonly http?: boolean;
  /** `--bulk`: every indexer loads as an initial sync even when its index has a tip (docs/indexer.md). */
  readonly bulk?: boolean;
}

/**
 * Everything `outpoint serve` and `outpoint index` run: the store, the event bus (in-process, or Redis
 * when `[redis] url` is set so that any API process can serve any subscriber), indexers, HTTP and realtime.
 */
export class Runtime {
  readonly store: ChainStore;
  readonly networks: readonly NetworkRuntime[];
  readonly market: Market;
  readonly observability: Observability;
  private app: FastifyInstance | null = null;
  private realtime: RealtimeHandle | null = null;
  private listeningUrl: string | null = null;
  private stopped = false;
  private readonly reloadTls = (): void => this.onSighup();
  /** What this process's indexers, P2P listeners and market publish on: the event log first, then `bus` (null: no log kept). */
  private readonly loggedBus: LoggedEventBus | null;
  private readonly pruner: EventLogPruner | null;
  /** Webhooks: the sender and dispatcher run in every process (deliveries are claimed), the matcher where events are published. */
  private readonly webhookSender: WebhookHttpSender;
  private readonly webhookLimits: WebhookLimits;
  private readonly dispatcher: WebhookDispatcher;
  private readonly matcher: WebhookMatcher | null;
  /** The Electrum listeners (where configured) and the background build of the scripthash index. */
  private readonly electrum: ElectrumRuntime;

  private constructor(
    readonly config: OutpointConfig,
    private readonly logger: Logger,
    private readonly options: RuntimeOptions,
    readonly bus: EventBus & { close?(): Promise<void> },
  ) {
    this.store = openStore(config.store.url, {
      rawTxs: config.store.rawTxs, readUrls: config.store.readUrls, maxReplicaLagMs: config.store.maxReplicaLagMs, sqliteCacheMb: config.store.sqliteCacheMb,
    });
    warnAboutSharedFiles(config, logger);
    this.observability = new Observability(config, this.store, logger);
    const logsEvents = config.realtime.eventLogHours > 0 && (options.indexers ?? true);
    const params = new Map(config.networks.map((n) => [n.id, getNetworkParams(n.id, n.chain)] as const));
    this.loggedBus = logsEvents ? new LoggedEventBus(bus, this.store.events(), new EventLogEntries(params).render, logger) : null;
    this.pruner = logsEvents
      ? new EventLogPruner(this.store.events(), [...params.keys()], { hours: config.realtime.eventLogHours, maxEvents: config.realtime.eventLogMaxEvents }, logger)
      : null;
    const hooks = config.webhooks;
    this.webhookLimits = new WebhookLimits({ maxHooks: hooks.maxHooks, deliveriesPerDay: hooks.maxDeliveriesPerDay }, hooks.planLimits);
    this.webhookSender = new WebhookHttpSender({ allowPrivateTargets: hooks.allowPrivateTargets });
    this.dispatcher = new WebhookDispatcher(this.store.webhooks(), this.webhookSender, { concurrency: hooks.concurrency, retryHours: hooks.retryHours, leaseMs: 30_000, idleMs: 500 }, logger);
    const index = new WebhookIndex(this.store.webhooks(), [...params.keys()], 2000);
    const readers = new Map([...params.keys()].map((id) => [id, this.store.network(id)] as const));
    this.matcher = (options.indexers ?? true)
      ? new WebhookMatcher(this.store.webhooks(), index, readers, this.store.accounts(), this.webhookLimits, () => this.dispatcher.poke(), logger)
      : null;
    const logged = this.loggedBus ?? bus;
    const publishBus = this.matcher ? tappedBus(logged, this.matcher) : logged;
    this.networks = config.networks.map((n) =>
      createNetworkRuntime(n, this.store, publishBus, logger, { store: config.store, bulk: options.bulk ?? false, writes: this.observability.storeWrites }),
    );
    this.electrum = new ElectrumRuntime(config, this.store, this.networks, logger);
    this.market = createMarket(config.market, this.store.prices(), publishBus, logger);
    registerMarketMetrics(this.observability.metrics, this.market);
    if (options.indexers ?? true) {
      this.observability.metrics.sampled({
        name: 'outpoint_indexer_writer',
        help: "1 when this process's indexer writes the network, 0 while it stands by for another process that holds the network's writer lock (PostgreSQL).",
        type: 'gauge',
        labels: ['network'],
        sample: () => this.networks.map((n) => ({ labels: { network: n.config.id }, value: n.indexer.isStandby ? 0 : 1 })),
      });
    }
  }

  static async create(config: OutpointConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
    const bus = config.redis.url
      ? await createRedisEventBus(config.redis.url, logger)
      : new MemoryEventBus((err) => logger.error('event subscriber failed', { error: String(err) }));
    return new Runtime(config, logger, options, bus);
  }

  /** Where the HTTP server listens (the configured public URL when one was given). */
  get publicUrl(): string {
    return this.listeningUrl ?? this.config.http.publicUrl;
  }

  /**
   * Migrates, serves HTTP, then checks every configured node before any indexer writes: each is waited for
   * while it is down or warming up, and one serving another chain than configured fails the start with a
   * ConfigError (what started is stopped again).
   */
  async start(): Promise<void> {
    await this.store.migrate();
    // systemd's ExecReload (deploy/systemd) sends SIGHUP to every process: handled always, so that a reload never
    // ends one (Node's default for SIGHUP), and taken as "re-read the TLS files" where there are any.
    process.on('SIGHUP', this.reloadTls);
    try {
      await this.observability.start();
      this.dispatcher.start();
      if (this.options.http !== false) await this.startHttp();
      if (this.options.http !== false) await this.electrum.start(this.bus, this.observability.metrics);
      if (this.options.indexers === false) return;
      // One poller per database, like one indexer per network: API-only replicas read the stored prices.
      this.market.start();
      this.pruner?.start();
      await Promise.all(this.networks.map((n) => waitForConfiguredNode(n, redact(n.config.rpcUrl), this.logger, { rawTxs: this.config.store.rawTxs })));
      // The writer records [store] raw_txs; a switch to "node" deletes the stored raw txs (raw-tx-mode.ts).
      await applyRawTxMode(this.store, this.config.store.rawTxs, this.logger);
      for (const network of this.networks) {
        this.logger.info('indexing', { network: network.config.id, chain: network.config.chain, node: redact(network.config.rpcUrl) });
        network.indexer.start();
        await network.notifier.start();
        await network.p2p.start();
      }
      this.electrum.startIndexBuild();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Idempotent: a failed start() already stopped what it had started, and callers may stop again. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    process.off('SIGHUP', this.reloadTls);
    // Realtime first: it closes its clients with a close frame before the HTTP server goes away.
    await this.realtime?.close();
    await this.electrum.stop();
    await this.app?.close();
    await this.market.stop();
    for (const network of this.networks) await network.p2p.stop();
    for (const network of this.networks) await network.notifier.stop();
    for (const network of this.networks) await network.indexer.stop();
    await this.pruner?.stop();
    await this.loggedBus?.drain();
    await this.matcher?.drain();
    await this.dispatcher.stop();
    for (const network of this.networks) network.node.rpc.close();
    for (const network of this.networks) network.rawTxNode.rpc.close();
    await this.observability.stop();
    await this.store.close();
    await this.bus.close?.();
  }

  private async startHttp(): Promise<void> {
    const networks: NetworkMap = new Map(
      this.networks.map((n) => [
        n.config.id,
        {
          params: getNetworkParams(n.config.id, n.config.chain),
          reader: this.store.network(n.config.id),
          // Sightings live in the process that indexes (and listens); API-only replicas answer with the local model.
          sightings: this.options.indexers === false ? null : n.p2p.watcher,
          rawTxs: n.rawTxs,
        },
      ]),
    );
    const rpcs = new Map<NetworkId, RpcClient>(this.networks.map((n) => [n.config.id, n.node.rpc]));
    const tls = this.config.http.tls ? this.readTls() : null;
    // The OpenAPI documents the HTTP layer makes from its routes, rendered for people by the web layer's /docs page.
    const apiDocuments = new ApiDocuments();
    const app = await buildHttpApp({
      ...(tls ? { tls, hstsMaxAgeSeconds: this.config.http.hstsMaxAgeS } : {}),
      networks,
      prices: this.market.reader,
      broadcaster: new RpcBroadcaster(rpcs),
      publicUrl: this.config.http.publicUrl,
      rateLimitPerSecond: this.config.http.rateLimitPerSecond,
      maxConcurrentPerIp: this.config.http.maxConcurrentPerIp,
      trustProxy: this.config.http.trustProxy,
      serverLimits: serverLimits(this.config.http),
      keyFailuresPerIp: this.config.accounts.keyFailuresPerIp,
      redisUrl: this.config.redis.url,
      logger: this.logger,
      shortLinks: this.store.shortAddresses(),
      accounts: this.store.accounts(),
      mempoolSources: new Map(this.networks.map((n) => [n.config.id, new RpcMempoolSource(n.node)])),
      feeSources: new Map(this.networks.map((n) => [n.config.id, new RpcFeeSource(n.node)])),
      packageSources: new Map(this.networks.map((n) => [n.config.id, new RpcMempoolPackageSource(n.node)])),
      events: this.bus,
      metrics: this.observability.metrics,
      ops: { health: this.observability.health, metrics: this.observability.apiExposition, electrum: () => this.electrum.listeners },
      rawBlocks: new Map(this.networks.map((n) => [n.config.id, new RpcChainSource(n.node)])),
      ...(this.config.realtime.eventLogHours > 0 ? { eventLog: this.store.events() } : {}),
      mempoolSamples: this.store.mempoolSamples(),
      webhooks: { store: this.store.webhooks(), targets: this.webhookSender, limits: this.webhookLimits },
      apiDocuments,
      extensions: [await createWebLayer(this.config, this.store, this.logger, apiDocuments)],
      ...(this.store.readReplicas() ? { readScope: this.store.readReplicas()!.scope } : {}),
    });
    this.app = app;
    this.realtime = attachRealtime(app.server, {
      appKey: this.config.realtime.appKey,
      sendThreads: this.config.realtime.sendThreads,
      trustProxy: this.config.http.trustProxy,
      limits: { maxConnectionsPerIp: this.config.realtime.maxConnectionsPerIp },
      bus: this.bus,
      networks: new Map([...networks].map(([id, n]) => [id, n.params])),
      logger: this.logger,
    });
    registerRealtimeMetrics(this.observability.metrics, this.realtime);
    await app.listen({ host: this.config.http.host, port: this.config.http.port });
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const scheme = tls ? 'https' : 'http';
    if (this.config.http.port === 0 || this.config.http.publicUrl === `${scheme}://${this.config.http.host}:${this.config.http.port}`) {
      this.listeningUrl = `${scheme}://${host}:${address.port}`;
    }
    this.logger.info('http listening', {
      url: `${scheme}://${host}:${address.port}`, explorer: `${this.publicUrl}/`, maxConnections: this.config.http.maxConnections, ...(tls ? { tls: this.config.http.tls } : {}),
    });
  }

  private readTls(): TlsCredentials {
    const files = this.config.http.tls!;
    return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
  }

  /**
   * A renewed certificate is taken on SIGHUP (e.g. by certbot's deploy hook), without a restart or dropped sockets: the
   * PEM files are re-read; a failed reload keeps serving the current certificate and says why.
   */
  private onSighup(): void {
    if (!this.app || !this.config.http.tls) {
      this.logger.info('SIGHUP: nothing to reload (no TLS certificate is served by this process)');
      return;
    }
    try {
      replaceTlsCredentials(this.app, this.readTls());
      this.electrum.reloadTls();
      this.logger.info('tls: certificate reloaded', { certFile: this.config.http.tls!.certFile });
    } catch (error) {
      this.logger.error('tls: reload failed; still serving the previous certificate', { error: (error as Error).message });
    }
  }
}

function serverLimits(http: OutpointConfig['http']): ServerLimits {
  return { requestTimeoutMs: http.requestTimeoutS * 1000, keepAliveTimeoutMs: http.keepAliveTimeoutS * 1000, maxConnections: http.maxConnections };
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
