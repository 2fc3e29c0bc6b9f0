import type { OutpointConfig } from '../../config/index.js';
import type { ChainStore, EventBus, Logger } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { createMarket, type Market } from '../../market/create-market.js';
import { registerMarketMetrics } from '../../market/market-metrics.js';
import { EventLogEntries } from '../../services/events/event-log-entries.js';
import { EventLogPruner } from '../../services/events/event-log-pruner.js';
import { LoggedEventBus } from '../../services/events/logged-event-bus.js';
import { tappedBus } from '../../services/webhooks/tapped-bus.js';
import { WebhookDispatcher } from '../../services/webhooks/webhook-dispatcher.js';
import { WebhookIndex } from '../../services/webhooks/webhook-index.js';
import { WebhookLimits } from '../../services/webhooks/webhook-limits.js';
import { WebhookMatcher } from '../../services/webhooks/webhook-matcher.js';
import { WalletWatcher } from '../../services/webhooks/wallet-watcher.js';
import { DerivationPool } from '../../services/wallets/derivation-pool.js';
import { WebhookHttpSender } from '../../webhooks-http/webhook-http-sender.js';
import { openStore } from '../stores/open-store.js';
import { warnAboutSharedFiles } from '../stores/private-files.js';
import { createNetworkRuntime, type NetworkRuntime } from './network-runtime.js';
import { Observability } from './observability.js';

/** What a process runs besides serving: its indexers (default on), and `--bulk`. */
export interface DriverOptions {
  readonly indexers: boolean;
  readonly bulk: boolean;
}

/**
 * Every driver of a process, built once from the configuration: the store, the event buses, the webhook parts, each
 * network's node, indexer and P2P side, the market and the observability. The runtime's parts start and stop them
 * (runtime.ts); the HTTP part builds the services and the app from them (http-part.ts).
 */
export interface Drivers {
  readonly config: OutpointConfig;
  readonly logger: Logger;
  readonly store: ChainStore;
  /** The bus every process subscribes to: in-process, or Redis across processes. */
  readonly bus: EventBus & { close?(): Promise<void> };
  /**
   * What this process's indexers, P2P listeners and market publish on: the webhook matcher's tap, then the event log
   * (which numbers each event), then `bus`. Where no indexer runs, `bus` itself.
   */
  readonly publishBus: EventBus;
  /** The event log's bus (null: no log kept here) and its pruner. */
  readonly loggedBus: LoggedEventBus | null;
  readonly pruner: EventLogPruner | null;
  /** Webhooks: the sender and dispatcher run in every process (deliveries are claimed), the matcher where events are published. */
  readonly webhookSender: WebhookHttpSender;
  readonly webhookLimits: WebhookLimits;
  readonly dispatcher: WebhookDispatcher;
  readonly matcher: WebhookMatcher | null;
  /** The wallets of wallet hooks, watched where events are published (issue 50). */
  readonly walletWatcher: WalletWatcher | null;
  readonly networks: readonly NetworkRuntime[];
  readonly market: Market;
  readonly observability: Observability;
}

export function buildDrivers(config: OutpointConfig, logger: Logger, bus: Drivers['bus'], options: DriverOptions): Drivers {
  const store = openStore(config.store.url, {
    rawTxs: config.store.rawTxs, readUrls: config.store.readUrls, maxReplicaLagMs: config.store.maxReplicaLagMs, sqliteCacheMb: config.store.sqliteCacheMb,
    // The process that indexes writes the most: its WAL checkpoints go to a worker thread (sqlite-checkpointer.ts).
    ...(options.indexers ? { onCheckpointFailure: (error: Error) => logger.warn('SQLite: background checkpoints stopped; the writer checkpoints itself', { error: error.message }) } : {}),
  });
  warnAboutSharedFiles(config, logger);
  const observability = new Observability(config, store, logger);
  const logsEvents = config.realtime.eventLogHours > 0 && options.indexers;
  const params = new Map(config.networks.map((n) => [n.id, getNetworkParams(n.id, n.chain)] as const));
  const ids = [...params.keys()];
  const loggedBus = logsEvents ? new LoggedEventBus(bus, store.events(), new EventLogEntries(params).render, logger) : null;
  const pruner = logsEvents
    ? new EventLogPruner(store.events(), ids, { hours: config.realtime.eventLogHours, maxEvents: config.realtime.eventLogMaxEvents }, logger)
    : null;
  const hooks = config.webhooks;
  const webhookLimits = new WebhookLimits({ maxHooks: hooks.maxHooks, deliveriesPerDay: hooks.maxDeliveriesPerDay }, hooks.planLimits, hooks.maxWalletHooks);
  const webhookSender = new WebhookHttpSender({ allowPrivateTargets: hooks.allowPrivateTargets, dnsTimeoutMs: hooks.dnsTimeoutMs, dnsServers: hooks.dnsServers });
  const dispatcher = new WebhookDispatcher(store.webhooks(), webhookSender, { concurrency: hooks.concurrency, retryHours: hooks.retryHours, leaseMs: 30_000, idleMs: 500 }, logger);
  const readers = new Map(ids.map((id) => [id, store.network(id)] as const));
  const hookIndex = new WebhookIndex(store.webhooks(), ids, 2000);
  const walletWatcher = options.indexers ? new WalletWatcher(hookIndex, readers, params, walletWatcherPool(logger), hooks.walletWindowAddresses, logger) : null;
  const matcher = options.indexers
    ? new WebhookMatcher(store.webhooks(), hookIndex, readers, store.accounts(), webhookLimits, () => dispatcher.poke(), logger)
    : null;
  const logged = loggedBus ?? bus;
  const publishBus = matcher && walletWatcher ? tappedBus(tappedBus(logged, matcher), walletWatcher) : logged;
  walletWatcher?.publishTo(publishBus);
  if (matcher) walletWatcher?.budgetedBy(matcher.accountOpen);
  const networks = config.networks.map((n) =>
    createNetworkRuntime(n, store, publishBus, logger, { store: config.store, bulk: options.bulk, writes: observability.storeWrites }),
  );
  const market = createMarket(config.market, store.prices(), publishBus, logger);
  registerMarketMetrics(observability.metrics, market);
  if (options.indexers) {
    observability.metrics.sampled({
      name: 'outpoint_indexer_writer',
      help: "1 when this process's indexer writes the network, 0 while it stands by for another process that holds the network's writer lock (PostgreSQL).",
      type: 'gauge',
      labels: ['network'],
      sample: () => networks.map((n) => ({ labels: { network: n.config.id }, value: n.indexer.isStandby ? 0 : 1 })),
    });
  }
  return { config, logger, store, bus, publishBus, loggedBus, pruner, webhookSender, webhookLimits, dispatcher, matcher, walletWatcher, networks, market, observability };
}

/** The wallet watcher's own derivation thread: one wallet at a time, apart from the API's (whose budgets are per client). */
function walletWatcherPool(logger: Logger): DerivationPool {
  return new DerivationPool({
    threads: 1, queue: 1,
    onLost: (error) => logger.error('wallet watcher: its derivation thread failed; deriving on the event loop from now on', { error: error.message }),
  });
}
