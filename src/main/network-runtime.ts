import type { NetworkConfig } from '../config/index.js';
import type { ChainStore, EventBus, Logger } from '../core/index.js';
import { getNetworkParams } from '../chains/networks.js';
import { NetworkIndexer } from '../indexer/network-indexer.js';
import { timedStore, type StoreWriteMetrics } from '../indexer/timed-store.js';
import type { BlockNotifier } from '../node/block-notifier.js';
import { NodeClient } from '../node/node-client.js';
import { PollNotifier } from '../node/poll-notifier.js';
import { RpcChainSource } from '../node/rpc-chain-source.js';
import { RpcClient } from '../node/rpc-client.js';
import { ZmqNotifier } from '../node/zmq-notifier.js';

/** One configured network: its node client, change notifier and indexer. */
export interface NetworkRuntime {
  readonly config: NetworkConfig;
  readonly node: NodeClient;
  readonly indexer: NetworkIndexer;
  readonly notifier: BlockNotifier;
}

export function createNetworkRuntime(config: NetworkConfig, store: ChainStore, bus: EventBus, logger: Logger, writes: StoreWriteMetrics): NetworkRuntime {
  const params = getNetworkParams(config.id, config.chain);
  const rpc = new RpcClient({ url: config.rpcUrl, ...(config.rpcCookie ? { cookieFile: config.rpcCookie } : {}) });
  const node = new NodeClient(rpc);
  const indexer = new NetworkIndexer({
    params,
    source: new RpcChainSource(node),
    store: timedStore(store.network(config.id), writes),
    bus,
    logger,
    batchTxTarget: config.syncBatchTxs,
    fetchRequests: config.syncRequests,
    removedMempoolKeepSeconds: config.mempoolRemovedKeepHours * 3600,
    progressSink: process.stderr.isTTY ? { isTTY: true, write: (text) => process.stderr.write(text) } : null,
  });
  const notifier: BlockNotifier =
    config.zmq === null
      ? new PollNotifier(node, { pollMs: config.pollMs })
      : // sequence (Core 0.21+): one ordered stream for blocks and mempool; hashblock/hashtx (Dogecoin Core 1.14) plus polling.
        new ZmqNotifier(node, { ...config.zmq.endpoints, ...(config.zmq.reconcileMs !== null ? { reconcileMs: config.zmq.reconcileMs } : {}) });
  notifier.on('tip', () => indexer.poke());
  notifier.on('mempool', () => indexer.poke());
  notifier.on('error', (err) => logger.warn('node notifications failed; retrying', { network: config.id, error: err.message }));
  return { config, node, indexer, notifier };
}
