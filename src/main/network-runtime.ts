import type { NetworkConfig } from '../config/index.js';
import type { ChainStore, EventBus, Logger } from '../core/index.js';
import { getNetworkParams } from '../chains/networks.js';
import { NetworkIndexer } from '../indexer/network-indexer.js';
import { timedLoader, timedStore, type StoreWriteMetrics } from '../indexer/timed-store.js';
import type { BlockNotifier } from '../node/block-notifier.js';
import { NodeClient } from '../node/node-client.js';
import { PollNotifier } from '../node/poll-notifier.js';
import { RpcChainSource } from '../node/rpc-chain-source.js';
import { RpcClient } from '../node/rpc-client.js';
import { ZmqNotifier } from '../node/zmq-notifier.js';
import { P2pRuntime } from './p2p-runtime.js';
import { sqliteWorkerLoader } from './worker-loader.js';

/** One configured network: its node client, change notifier, indexer and P2P side (sightings, listener). */
export interface NetworkRuntime {
  readonly config: NetworkConfig;
  readonly node: NodeClient;
  readonly indexer: NetworkIndexer;
  readonly notifier: BlockNotifier;
  readonly p2p: P2pRuntime;
}

/** The file of an on-disk SQLite store (an initial load then parses and writes on a worker thread), else null. */
function sqliteFile(storeUrl: string): string | null {
  const path = storeUrl.startsWith('sqlite:') ? storeUrl.slice('sqlite:'.length) : null;
  return path && path !== ':memory:' ? path : null;
}

export function createNetworkRuntime(
  config: NetworkConfig,
  store: ChainStore,
  bus: EventBus,
  logger: Logger,
  options: { readonly storeUrl: string; readonly bulk: boolean; readonly writes: StoreWriteMetrics },
): NetworkRuntime {
  const params = getNetworkParams(config.id, config.chain);
  const file = sqliteFile(options.storeUrl);
  const rpc = new RpcClient({ url: config.rpcUrl, ...(config.rpcCookie ? { cookieFile: config.rpcCookie } : {}) });
  const node = new NodeClient(rpc);
  const indexer = new NetworkIndexer({
    params,
    source: new RpcChainSource(node),
    store: timedStore(store.network(config.id), options.writes),
    bus,
    logger,
    batchTxTarget: config.syncBatchTxs,
    fetchRequests: config.syncRequests,
    removedMempoolKeepSeconds: config.mempoolRemovedKeepHours * 3600,
    bulk: options.bulk,
    progressSink: process.stderr.isTTY ? { isTTY: true, write: (text) => process.stderr.write(text) } : null,
    // A testing aid only (crash tests stop the process between build steps); not a configuration key.
    buildStepDelayMs: Number(process.env['OUTPOINT_TEST_BUILD_STEP_DELAY_MS'] ?? 0),
    ...(file !== null
      ? { initialLoader: () => timedLoader(sqliteWorkerLoader({ path: file, network: config.id, chain: config.chain }), options.writes, config.id, params.features) }
      : {}),
  });
  const notifier: BlockNotifier =
    config.zmq === null
      ? new PollNotifier(node, { pollMs: config.pollMs })
      : // sequence (Core 0.21+): one ordered stream for blocks and mempool; hashblock/hashtx (Dogecoin Core 1.14) plus polling.
        new ZmqNotifier(node, { ...config.zmq.endpoints, ...(config.zmq.reconcileMs !== null ? { reconcileMs: config.zmq.reconcileMs } : {}) });
  notifier.on('tip', () => indexer.poke());
  notifier.on('mempool', () => indexer.poke());
  notifier.on('error', (err) => logger.warn('node notifications failed; retrying', { network: config.id, error: err.message }));
  const p2p = new P2pRuntime(config, params, store.network(config.id), bus, node, logger, () => indexer.isSyncing);
  return { config, node, indexer, notifier, p2p };
}
