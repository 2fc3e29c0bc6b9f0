import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiDocuments } from '../../core/infrastructure/api-documents.js';
import type { Metrics, MetricsExposition, NetworkId } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { replaceTlsCredentials, type TlsCredentials } from '../../http/tls.js';
import type { ServerLimits } from '../../http/server-limits.js';
import { RpcBroadcaster } from '../../node/rpc-broadcaster.js';
import { RpcChainSource } from '../../node/rpc-chain-source.js';
import { RpcFeeSource } from '../../node/rpc-fee-source.js';
import { RpcMempoolPackageSource } from '../../node/rpc-mempool-package-source.js';
import { RpcMempoolSource } from '../../node/rpc-mempool-source.js';
import type { RpcClient } from '../../node/rpc/rpc-client.js';
import { attachRealtime, type RealtimeHandle } from '../../realtime/attach-realtime.js';
import { registerRealtimeMetrics } from '../../realtime/realtime-metrics.js';
import type { Services } from '../../services/create-services.js';
import type { NetworkMap } from '../../services/shared/network-registry.js';
import type { Drivers } from './drivers.js';
import { accountDeps, createApp, httpLimits, type AppWiring } from './http-wiring.js';
import { processCounters, type HttpCounters } from './processes/http-counters.js';
import type { RuntimePart } from './runtime-parts.js';
import { createWebLayer } from './web-layer.js';

/** What serves the port: this process (HttpPart) or its HTTP workers (http-cluster.ts); the runtime asks either the same. */
export interface HttpServing extends RuntimePart {
  /** The URL it listens on when the configured public URL does not say it (port 0, or the default). */
  readonly listeningUrl: string | null;
  /** SIGHUP: the certificate again. */
  reloadTls(): void;
}

export interface HttpPartOptions {
  /** Sightings live in the process that indexes (and listens); API-only replicas answer with the local model. */
  readonly withSightings: boolean;
  /** Where this process's Electrum server listens, for /ready (docs/electrum.md). */
  readonly electrumListeners?: () => readonly { readonly network: string; readonly transport: string; readonly address: string }[];
  /** The per-client counters; default this process's (memory or Redis). HTTP workers count on the serving process's. */
  readonly counters?: HttpCounters;
  /** Where the HTTP figures are recorded and what /metrics shows; default the observability's registry. */
  readonly metrics?: { readonly registry: Metrics; readonly exposition: MetricsExposition | null };
  /** Told the services once built (an HTTP worker forgets cached key verdicts when another worker changed accounts). */
  readonly onServices?: (services: Services) => void;
}

/**
 * The HTTP APIs, the web layer and realtime on one port, as a runtime part: started before the nodes are waited for
 * (the APIs answer, "syncing" included, while a node is down), stopped after the indexers: realtime first (it closes
 * its clients with a close frame), then the app (the listener closes, what is in flight is answered).
 */
export class HttpPart implements HttpServing {
  readonly name = 'http';
  private app: FastifyInstance | null = null;
  private realtime: RealtimeHandle | null = null;
  private closeCounters: (() => Promise<void>) | null = null;
  /** The URL it listens on when the configured public URL does not say it (port 0, or the default). */
  listeningUrl: string | null = null;

  private readonly metrics: { readonly registry: Metrics; readonly exposition: MetricsExposition | null };

  constructor(private readonly drivers: Drivers, private readonly options: HttpPartOptions) {
    this.metrics = options.metrics ?? { registry: drivers.observability.metrics, exposition: drivers.observability.apiExposition };
  }

  async start(): Promise<void> {
    const { config, logger } = this.drivers;
    const tls = config.http.tls ? this.readTls() : null;
    // Built at start (a Redis limiter opens a connection), closed at stop.
    const counters = this.options.counters ?? processCounters(config, logger);
    const concurrency = counters.concurrency;
    this.closeCounters = () => concurrency.close();
    const wiring = await this.wiring(tls, counters);
    const app = (this.app = await createApp(wiring, this.options.onServices));
    this.realtime = attachRealtime(app.server, {
      appKey: config.realtime.appKey,
      sendThreads: config.realtime.sendThreads,
      trustProxy: config.http.trustProxy,
      limits: { maxConnectionsPerIp: config.realtime.maxConnectionsPerIp },
      ...(counters.realtimeSlots ? { connectionSlots: counters.realtimeSlots } : {}),
      bus: this.drivers.bus,
      networks: new Map([...wiring.networks].map(([id, n]) => [id, n.params])),
      logger,
    });
    registerRealtimeMetrics(this.metrics.registry, this.realtime);
    await app.listen({ host: config.http.host, port: config.http.port });
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const scheme = tls ? 'https' : 'http';
    if (config.http.port === 0 || config.http.publicUrl === `${scheme}://${config.http.host}:${config.http.port}`) {
      this.listeningUrl = `${scheme}://${host}:${address.port}`;
    }
    logger.info('http listening', {
      url: `${scheme}://${host}:${address.port}`, explorer: `${this.listeningUrl ?? config.http.publicUrl}/`, maxConnections: config.http.maxConnections,
      ...(tls ? { tls: config.http.tls } : {}),
    });
  }

  /** The bound address (after start). */
  address(): AddressInfo {
    return this.server.address() as AddressInfo;
  }

  /** The listening server (after start). */
  get server(): Server {
    return this.app!.server;
  }

  async stop(): Promise<void> {
    await this.realtime?.close();
    await this.app?.close();
    await this.closeCounters?.();
  }

  /**
   * A renewed certificate is taken on SIGHUP (e.g. by certbot's deploy hook), without a restart or dropped sockets: the
   * PEM files are re-read; a failed reload keeps serving the current certificate and says why.
   */
  reloadTls(): void {
    const { config, logger } = this.drivers;
    if (!this.app || !config.http.tls) {
      logger.info('SIGHUP: nothing to reload (no TLS certificate is served by this process)');
      return;
    }
    try {
      replaceTlsCredentials(this.app, this.readTls());
      logger.info('tls: certificate reloaded', { certFile: config.http.tls.certFile });
    } catch (error) {
      logger.error('tls: reload failed; still serving the previous certificate', { error: (error as Error).message });
    }
  }

  /** What the services and the app are built from: the drivers, as services and HTTP take them (AppWiring). */
  private async wiring(tls: TlsCredentials | null, counters: HttpCounters): Promise<AppWiring> {
    const { config, logger, store, networks: runtimes, market, observability, webhookSender, webhookLimits, bus } = this.drivers;
    const { options } = this;
    const networks: NetworkMap = new Map(runtimes.map((n) => [
      n.config.id,
      { params: getNetworkParams(n.config.id, n.config.chain), reader: store.network(n.config.id), sightings: options.withSightings ? n.p2p.watcher : null, rawTxs: n.rawTxs },
    ]));
    const perNetwork = <T>(make: (n: (typeof runtimes)[number]) => T): ReadonlyMap<NetworkId, T> => new Map(runtimes.map((n) => [n.config.id, make(n)]));
    // The OpenAPI documents the HTTP layer makes from its routes, rendered for people by the web layer's /docs page.
    const apiDocuments = new ApiDocuments();
    const readReplicas = store.readReplicas();
    return {
      networks,
      prices: market.reader,
      broadcaster: new RpcBroadcaster(perNetwork<RpcClient>((n) => n.node.rpc)),
      shortLinks: store.shortAddresses(),
      logger,
      mempoolSources: perNetwork((n) => new RpcMempoolSource(n.node)),
      feeSources: perNetwork((n) => new RpcFeeSource(n.node)),
      packageSources: perNetwork((n) => new RpcMempoolPackageSource(n.node)),
      rawBlocks: perNetwork((n) => new RpcChainSource(n.node)),
      events: bus,
      ...(config.realtime.eventLogHours > 0 ? { eventLog: store.events() } : {}),
      mempoolSamples: store.mempoolSamples(),
      webhooks: { store: store.webhooks(), targets: webhookSender, limits: webhookLimits },
      feed: { pageBytes: config.realtime.feedPageBytes, bytesPerMinute: config.realtime.feedBytesPerMinute },
      wallets: {
        derivePerMinute: config.wallets.derivePerMinute, threads: config.wallets.deriveThreads, queue: config.wallets.deriveQueue, cacheBytes: config.wallets.cacheBytes,
      },
      // Per-client budgets (wallet derivations, catch-up bytes) count on the rate counters of this process or Redis.
      counters: counters.rateCounters,
      accounts: accountDeps(store.accounts(), config.redis.url, logger, { keyFailuresPerIp: config.accounts.keyFailuresPerIp, usage: counters.usage(store.accounts()) }),
      limits: httpLimits(config.http, counters.rateCounters, counters.concurrency),
      publicUrl: config.http.publicUrl,
      trustProxy: config.http.trustProxy,
      serverLimits: serverLimits(config.http),
      ...(tls ? { tls, hstsMaxAgeSeconds: config.http.hstsMaxAgeS } : {}),
      metrics: this.metrics.registry,
      ops: { health: observability.health, metrics: this.metrics.exposition, ...(options.electrumListeners ? { electrum: options.electrumListeners } : {}) },
      apiDocuments,
      extensions: [await createWebLayer(config, store, logger, apiDocuments, counters)],
      ...(readReplicas ? { readScope: readReplicas.scope } : {}),
    };
  }

  private readTls(): TlsCredentials {
    const files = this.drivers.config.http.tls!;
    return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
  }
}

function serverLimits(http: { readonly requestTimeoutS: number; readonly keepAliveTimeoutS: number; readonly maxConnections: number }): ServerLimits {
  return { requestTimeoutMs: http.requestTimeoutS * 1000, keepAliveTimeoutMs: http.keepAliveTimeoutS * 1000, maxConnections: http.maxConnections };
}
