/**
 * An HTTP worker process (`[http] processes` > 1): a cluster worker of `outpoint serve` serving the HTTP port (REST,
 * realtime, the web pages; Node's cluster hands each new connection to one worker) as an API-only process does: its
 * own store connection and node clients, no indexer, webhook matcher, event log, price poller or P2P listener. What
 * it shares with the other workers it gets from the serving process (http-cluster.ts): the configuration, the events
 * off the bus, every per-client counter (ipc-counters.ts), the merged /metrics text, SIGHUP's reload. It sends back
 * its bound address and, every second, its metrics (metrics-relay.ts). It ends when told to (answering what is in
 * flight first), or when the serving process is gone.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { OutpointConfig } from '../../../config/index.js';
import { MemoryEventBus, type ChainStore } from '../../../core/index.js';
import type { AccountStore } from '../../../core/store/account-store.js';
import type { Services } from '../../../services/create-services.js';
import { createLogger } from '../../logging/logger.js';
import { buildDrivers } from '../drivers.js';
import { HttpPart } from '../http-part.js';
import { publishEvents, type EventsMessage } from './event-forwarder.js';
import { IpcCaller, type RepliesMessage } from './ipc-calls.js';
import { ipcCounters } from './ipc-counters.js';
import { RelayMetrics } from './metrics-relay.js';

export type ElectrumListeners = readonly { readonly network: string; readonly transport: string; readonly address: string }[];

/** What the serving process sends. */
export type ToHttpWorker =
  | RepliesMessage | EventsMessage
  | { readonly type: 'electrum'; readonly listeners: ElectrumListeners }
  | { readonly type: 'accounts-changed' } | { readonly type: 'key-failure'; readonly ip: string } | { readonly type: 'reload-tls' } | { readonly type: 'stop' };

/** The account store's writes that change a key's verdict (plans, accounts, keys): each tells every worker after it. */
const VERDICT_WRITES = new Set(['setPlan', 'createAccount', 'updateAccount', 'deleteAccount', 'addKey', 'rotateKey', 'revokeKey']);

async function runWorker(): Promise<void> {
  const shared = JSON.parse(process.env['OUTPOINT_HTTP_WORKER_CONFIG']!) as OutpointConfig;
  // The connection bound is the server's: each worker takes its share (the cluster deals connections out in turn).
  const config = { ...shared, http: { ...shared.http, maxConnections: Math.max(1, Math.ceil(shared.http.maxConnections / shared.http.processes)) } };
  const logger = createLogger({ level: config.log.level, format: config.log.format, walletKeys: config.log.walletKeys });
  const caller = new IpcCaller((message) => process.send?.(message));
  const bus = new MemoryEventBus((error) => logger.error('event subscriber failed', { error: String(error) }));
  const drivers = buildDrivers(config, logger, bus, { indexers: false, bulk: false });
  const metrics = new RelayMetrics((message) => process.send?.(message));
  let services: Services | null = null;
  let otherKeyFailure: (ip: string) => void = () => undefined;
  let electrum: ElectrumListeners = [];
  const http = new HttpPart({ ...drivers, store: notifyingStore(drivers.store, () => caller.call('accounts.changed', [])) }, {
    withSightings: false,
    electrumListeners: () => electrum,
    counters: ipcCounters(caller),
    metrics: {
      registry: metrics,
      // Any worker may answer /metrics: it sends its own figures first, then shows the serving process's merged text.
      exposition: config.metrics.listen ? null : {
        contentType: drivers.observability.metrics.contentType,
        render: async () => {
          await metrics.flush();
          return caller.call<string>('metrics.render', []);
        },
      },
    },
    onServices: (built) => {
      services = built;
      otherKeyFailure = shareKeyFailures(built, caller);
    },
  });
  let stopping: Promise<void> | null = null;
  // Told to stop: the requests in flight are answered first, their counter calls still answered by the serving
  // process. Orphaned (the serving process is gone): nothing answers those calls any more, so they fail at once.
  const stop = (orphaned: boolean): Promise<void> => (stopping ??= (async () => {
    if (orphaned) caller.close('the serving process is gone');
    await http.stop().catch((error: Error) => logger.error('http worker: stop failed', { error: error.message }));
    caller.close('the HTTP worker stopped');
    await metrics.flush();
    metrics.stop();
    await drivers.observability.stop();
    for (const network of drivers.networks) network.node.rpc.close();
    for (const network of drivers.networks) network.rawTxNode.rpc.close();
    await drivers.store.close();
    process.exit(0);
  })());
  process.on('message', (message: ToHttpWorker) => {
    if (message.type === 'replies') caller.settleAll(message);
    else if (message.type === 'events') publishEvents(bus, message);
    else if (message.type === 'electrum') electrum = message.listeners;
    else if (message.type === 'accounts-changed') services?.accounts?.keys.invalidate();
    else if (message.type === 'key-failure') otherKeyFailure(message.ip);
    else if (message.type === 'reload-tls') http.reloadTls();
    else void stop(false);
  });
  // systemd signals every process of the unit (SIGHUP on reload, SIGTERM on stop: KillMode=control-group), a
  // terminal's Ctrl-C the whole group: the serving process decides (it forwards reloads, and says when to stop once
  // its own parts before HTTP have stopped), so none ends a worker by itself, and none makes it replace one.
  process.on('SIGHUP', () => undefined);
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  // The serving process is gone (killed): nothing feeds this one any more.
  process.on('disconnect', () => void stop(true));
  drivers.observability.health.start();
  await http.start();
  countRequests(metrics, http.server);
  process.send?.({ type: 'ready', address: http.address() });
}

/** Each worker's figures, by process id: which workers run, and how evenly the cluster deals them connections. */
function countRequests(metrics: RelayMetrics, server: Server): void {
  const pid = String(process.pid);
  metrics.sampled({
    name: 'outpoint_http_worker_up', help: 'The HTTP worker processes running now ([http] processes > 1), 1 each, by process id.', type: 'gauge',
    labels: ['pid'], sample: () => [{ labels: { pid }, value: 1 }],
  });
  const requests = metrics.counter({ name: 'outpoint_http_worker_requests_total', help: 'Requests each HTTP worker process was handed, by process id.', labels: ['pid'] }).bind({ pid });
  server.on('request', () => requests.inc());
}

/**
 * v3's 401s per client network (key-failure-limit.ts) are checked on the request path without a round trip, so each
 * worker counts them all: its own, told to the others, and theirs (the function returned). A worker's 401 goes out
 * once the serving process has passed it on to the other workers (its reply follows its messages to them): a
 * client's next request finds it counted wherever it lands, but for a request read in the same turn as that message
 * (docs/operations.md, "HTTP on several cores": the bound). Telling it without waiting let a loaded machine's client
 * pass the limit by two one after another.
 */
function shareKeyFailures(services: Services, caller: IpcCaller): (ip: string) => void {
  const limit = services.accounts?.keyFailures;
  if (!limit) return () => undefined;
  limit.share = async (ip: string) => {
    await caller.call('keyFailure.record', [ip]);
  };
  return (ip) => limit.record(ip);
}

/**
 * The store with its account writes reported: every worker caches key verdicts for a few seconds, so a revoked key or
 * a changed plan is told to all of them (through the serving process) before the write's answer goes out.
 */
function notifyingStore(store: ChainStore, changed: () => Promise<unknown>): ChainStore {
  const accounts = store.accounts();
  const notifying = new Proxy(accounts, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof key !== 'string' || !VERDICT_WRITES.has(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await changed().catch(() => undefined);
        return result;
      };
    },
  }) as AccountStore;
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'accounts') return () => notifying;
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

if (cluster.isWorker) await runWorker();
