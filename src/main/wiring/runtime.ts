import type { OutpointConfig } from '../../config/index.js';
import { MemoryEventBus, type ChainStore, type EventBus, type Logger } from '../../core/index.js';
import type { Market } from '../../market/create-market.js';
import { createRedisEventBus } from '../../redis/redis-event-bus.js';
import { buildDrivers, type Drivers } from './drivers.js';
import { ElectrumPart, scriptHashIndexBuildPart } from './electrum/electrum-part.js';
import { HttpPart, type HttpServing } from './http-part.js';
import { HttpCluster } from './processes/http-cluster.js';
import type { NetworkRuntime } from './network-runtime.js';
import { waitForConfiguredNode } from './node-check.js';
import type { Observability } from './observability.js';
import { applyRawTxMode } from './raw-tx-mode.js';
import { RuntimeParts, type RuntimePart } from './runtime-parts.js';

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
 * The drivers are built once (drivers.ts); what runs is a list of parts, declared once below in the order they
 * start, stopped in reverse (runtime-parts.ts).
 */
export class Runtime {
  readonly store: ChainStore;
  readonly networks: readonly NetworkRuntime[];
  readonly market: Market;
  readonly observability: Observability;
  private readonly http: HttpServing | null;
  private readonly parts: RuntimeParts;

  private constructor(
    readonly config: OutpointConfig,
    logger: Logger,
    options: RuntimeOptions,
    readonly bus: EventBus & { close?(): Promise<void> },
  ) {
    const indexers = options.indexers ?? true;
    const drivers = buildDrivers(config, logger, bus, { indexers, bulk: options.bulk ?? false });
    ({ store: this.store, networks: this.networks, market: this.market, observability: this.observability } = drivers);
    const electrum = options.http !== false ? new ElectrumPart(drivers) : null;
    this.http = options.http === false ? null
      // `[http] processes` > 1: worker processes serve the port, this one keeps what only one process does.
      : config.http.processes > 1 ? new HttpCluster(drivers, electrum?.listeners)
      : new HttpPart(drivers, { withSightings: indexers, ...(electrum ? { electrumListeners: electrum.listeners } : {}) });
    this.parts = new RuntimeParts(runtimeParts(drivers, this.http, electrum, indexers));
  }

  static async create(config: OutpointConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
    const bus = config.redis.url
      ? await createRedisEventBus(config.redis.url, logger)
      : new MemoryEventBus((err) => logger.error('event subscriber failed', { error: String(err) }));
    return new Runtime(config, logger, options, bus);
  }

  /** Where the HTTP server listens (the configured public URL when one was given). */
  get publicUrl(): string {
    return this.http?.listeningUrl ?? this.config.http.publicUrl;
  }

  /**
   * Migrates, serves HTTP, then checks every configured node before any indexer writes: each is waited for
   * while it is down or warming up, and one serving another chain than configured fails the start with a
   * ConfigError (what started is stopped again).
   */
  start(): Promise<void> {
    return this.parts.start();
  }

  /** Idempotent: a failed start() already stopped what it had started, and callers may stop again. */
  stop(): Promise<void> {
    return this.parts.stop();
  }
}

/**
 * The parts of a process, in the order they start (they stop in reverse): the bus and the store first and last; the
 * HTTP APIs and the Electrum listeners before the nodes are waited for; the indexers last, so they stop first and the
 * buses they publish on drain after them.
 */
function runtimeParts(drivers: Drivers, http: HttpServing | null, electrum: ElectrumPart | null, indexers: boolean): RuntimePart[] {
  const { config, logger, store, bus, observability, networks, dispatcher, matcher, walletWatcher, loggedBus, pruner, market } = drivers;
  // systemd's ExecReload (deploy/systemd) sends SIGHUP to every process: handled always, so that a reload never
  // ends one (Node's default for SIGHUP), and taken as "re-read the TLS files" where there are any.
  const onSighup = (): void => {
    if (http) http.reloadTls();
    else logger.info('SIGHUP: nothing to reload (no TLS certificate is served by this process)');
    electrum?.reloadTls();
  };
  const parts: RuntimePart[] = [
    { name: 'event bus', stop: () => bus.close?.() },
    { name: 'store', start: () => store.migrate(), stop: () => store.close() },
    { name: 'SIGHUP', start: () => void process.on('SIGHUP', onSighup), stop: () => void process.off('SIGHUP', onSighup) },
    { name: 'observability', start: () => observability.start(), stop: () => observability.stop() },
    {
      name: 'node clients',
      stop: () => {
        for (const network of networks) network.node.rpc.close();
        for (const network of networks) network.rawTxNode.rpc.close();
      },
    },
    { name: 'webhook dispatcher', start: () => dispatcher.start(), stop: () => dispatcher.stop() },
    { name: 'webhook matcher', stop: () => matcher?.drain() },
    { name: 'event log', stop: () => loggedBus?.drain() },
    // Publishes wallet_touched into the matcher and the event log: drained before either.
    { name: 'wallet watcher', start: () => walletWatcher?.start(), stop: () => walletWatcher?.close() },
    ...(http ? [http] : []),
    // The Electrum listeners answer, like HTTP, while a node is waited for; they stop before HTTP.
    ...(electrum ? [electrum] : []),
    // HTTP workers list the Electrum listeners in /ready: told once they are bound.
    ...(http instanceof HttpCluster ? [{ name: 'electrum listeners to http workers', start: () => http.shareElectrumListeners() }] : []),
  ];
  if (!indexers) return parts;
  return [
    ...parts,
    // One poller per database, like one indexer per network: API-only replicas read the stored prices.
    { name: 'market', start: () => market.start(), stop: () => market.stop() },
    { name: 'event log pruner', start: () => pruner?.start(), stop: () => pruner?.stop() },
    {
      name: 'node checks',
      start: async () => {
        await Promise.all(networks.map((n) => waitForConfiguredNode(n, redact(n.config.rpcUrl), logger, { rawTxs: config.store.rawTxs })));
        // The writer records [store] raw_txs; a switch to "node" deletes the stored raw txs (raw-tx-mode.ts).
        await applyRawTxMode(store, config.store.rawTxs, logger);
      },
    },
    ...networks.flatMap((network): RuntimePart[] => [
      {
        name: `${network.config.id} indexer`,
        start: () => {
          logger.info('indexing', { network: network.config.id, chain: network.config.chain, node: redact(network.config.rpcUrl) });
          network.indexer.start();
        },
        stop: () => network.indexer.stop(),
      },
      { name: `${network.config.id} notifier`, start: () => network.notifier.start(), stop: () => network.notifier.stop() },
      { name: `${network.config.id} P2P`, start: () => network.p2p.start(), stop: () => network.p2p.stop() },
    ]),
    // What an upgraded store's scripthash index lacks, built by the writer in the background (Electrum's lookups).
    scriptHashIndexBuildPart(drivers),
  ];
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
