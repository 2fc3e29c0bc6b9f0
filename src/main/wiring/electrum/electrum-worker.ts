/**
 * An Electrum worker process (`[electrum] processes` > 1): a cluster worker of `outpoint serve` that serves the
 * Electrum listeners of every network (Node's cluster hands each new connection to one worker) from its own store
 * connection and node clients. The serving process sends it the configuration, the changes its subscriptions need
 * (electrum-changes.ts, as they come off the event bus) and SIGHUP's certificate reload; it sends back its bound
 * listeners and, every second, its metrics (metrics-relay.ts). It ends when told to, or when the serving process is gone.
 */
import cluster from 'node:cluster';
import type { OutpointConfig } from '../../../config/index.js';
import type { ElectrumChange } from '../../../electrum/subscriptions/electrum-changes.js';
import { getNetworkParams } from '../../../chains/networks.js';
import { NodeClient } from '../../../node/rpc/node-client.js';
import { NodeRawTxSource } from '../../../node/node-raw-tx-source.js';
import { RpcClient } from '../../../node/rpc/rpc-client.js';
import { createLogger } from '../../logging/logger.js';
import { openStore } from '../../stores/open-store.js';
import { buildElectrumServer, electrumNetworks, readTlsPair, type ElectrumNode } from './electrum-server.js';
import { RelayMetrics } from '../processes/metrics-relay.js';

/** What the serving process sends. */
export type ToWorker = { readonly type: 'change'; readonly change: ElectrumChange } | { readonly type: 'reload-tls' } | { readonly type: 'stop' };

async function runWorker(): Promise<void> {
  const config = JSON.parse(process.env['OUTPOINT_ELECTRUM_WORKER_CONFIG']!) as OutpointConfig;
  const logger = createLogger({ level: config.log.level, format: config.log.format, walletKeys: config.log.walletKeys });
  const store = openStore(config.store.url, {
    rawTxs: config.store.rawTxs, readUrls: config.store.readUrls, maxReplicaLagMs: config.store.maxReplicaLagMs, sqliteCacheMb: config.store.sqliteCacheMb,
  });
  const nodes = new Map(electrumNetworks(config).map((n): [typeof n.id, ElectrumNode] => {
    const auth = n.rpcCookie ? { cookieFile: n.rpcCookie } : {};
    const rawTxNode = new NodeClient(new RpcClient({ url: n.rpcUrl, ...auth, retries: 1, timeoutMs: 15_000 }));
    const rawTxs = new NodeRawTxSource(rawTxNode, { network: n.id, features: getNetworkParams(n.id, n.chain).features, cacheBytes: config.store.rawTxCacheBytes });
    return [n.id, { rpc: new RpcClient({ url: n.rpcUrl, ...auth }), rawTxs }];
  }));
  const metrics = new RelayMetrics((message) => process.send?.(message));
  const followers = new Set<(change: ElectrumChange) => void>();
  const handle = await buildElectrumServer({
    config, store, nodes, metrics, logger, processes: config.electrum.processes,
    changes: (onChange) => {
      followers.add(onChange);
      return () => followers.delete(onChange);
    },
  });
  const stop = async (): Promise<void> => {
    metrics.stop();
    await handle.close();
    await store.close();
    process.exit(0);
  };
  const reloadTls = (): void => {
    try {
      const tls = readTlsPair(config);
      if (tls) handle.reloadTls(tls);
    } catch (error) {
      logger.error('tls: reload failed in an Electrum worker; still serving the previous certificate', { error: (error as Error).message });
    }
  };
  process.on('message', (message: ToWorker) => {
    if (message.type === 'change') for (const follow of followers) follow(message.change);
    else if (message.type === 'reload-tls') reloadTls();
    else void stop();
  });
  // systemd signals every process of the unit (SIGHUP on reload, SIGTERM on stop: KillMode=control-group), a
  // terminal's Ctrl-C the whole group: the serving process decides (it forwards reloads, and says when to stop once
  // its own parts before Electrum have stopped), so none ends a worker by itself, and none makes it replace one.
  process.on('SIGHUP', () => undefined);
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  // The serving process is gone (killed): nothing feeds this one any more.
  process.on('disconnect', () => void stop());
  process.send?.({ type: 'ready', listeners: handle.listeners });
}

if (cluster.isWorker) await runWorker();
