import type { NetworkConfig, OutpointConfig } from '../../config/index.js';
import type { ChainStore, EventBus, Logger } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { NetworkIndexer } from '../../indexer/network-indexer.js';
import { timedLoader, timedStore, type StoreWriteMetrics } from '../../indexer/timed-store.js';
import type { BlockNotifier } from '../../node/notifiers/block-notifier.js';
import { NodeClient } from '../../node/rpc/node-client.js';
import { NodeRawTxSource } from '../../node/node-raw-tx-source.js';
import { PollNotifier } from '../../node/notifiers/poll-notifier.js';
import { RpcChainSource } from '../../node/rpc-chain-source.js';
import { RpcClient } from '../../node/rpc/rpc-client.js';
import { ZmqNotifier } from '../../node/notifiers/zmq-notifier.js';
import { P2pRuntime } from './p2p-runtime.js';
import { sqliteWorkerLoader } from '../stores/worker-loader.js';
import { postgresWorkerLoader } from '../stores/postgres-worker-loader.js';
import { PostgresStore } from '../../store/postgres/postgres-store.js';

/** One configured network: its node client, change notifier, indexer and P2P side (sightings, listener). */
export interface NetworkRuntime {
  readonly config: NetworkConfig;
  readonly node: NodeClient;
  /** Raw txs the store does not keep, from the node (raw_txs = "node"; also txs indexed before a switch to "store"). */
  readonly rawTxs: NodeRawTxSource;
  /** rawTxs' own client: API requests fail fast (one retry) while the node is down, without the indexer's retries. */
  readonly rawTxNode: NodeClient;
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
  options: { readonly store: OutpointConfig['store']; readonly bulk: boolean; readonly writes: StoreWriteMetrics },
): NetworkRuntime {
  const params = getNetworkParams(config.id, config.chain);
  const auth = config.rpcCookie ? { cookieFile: config.rpcCookie } : {};
  const node = new NodeClient(new RpcClient({ url: config.rpcUrl, ...auth }));
  const rawTxNode = new NodeClient(new RpcClient({ url: config.rpcUrl, ...auth, retries: 1, timeoutMs: 15_000 }));
  const rawTxs = new NodeRawTxSource(rawTxNode, { network: config.id, features: params.features, cacheBytes: options.store.rawTxCacheBytes });
  const file = sqliteFile(options.store.url);
  const rawTxMode = options.store.rawTxs;
  const worker = { network: config.id, chain: config.chain, rawTxs: rawTxMode };
  // The initial load parses on a worker thread: SQLite's writes there too; PostgreSQL's on the writer session here.
  const initialLoader = file !== null
    ? () => sqliteWorkerLoader({ path: file, ...worker })
    : store instanceof PostgresStore ? () => postgresWorkerLoader(store.postgresNetwork(config.id), worker) : null;
  const indexer = new NetworkIndexer({
    params,
    source: new RpcChainSource(node),
    store: timedStore(store.network(config.id), options.writes),
    bus,
    logger,
    batchTxTarget: config.syncBatchTxs,
    fetchRequests: config.syncRequests,
    removedMempoolKeepSeconds: config.mempoolRemovedKeepHours * 3600,
    mempoolSamples: { store: store.mempoolSamples(), everySeconds: config.mempoolSampleSeconds, keepSeconds: config.mempoolSamplesKeepHours * 3600 },
    bulk: options.bulk,
    // The bulk build's rare reads of raw txs (colliding script keys), and the cache of recent blocks, in node mode only.
    ...(rawTxMode === 'node' ? { rawTxs } : {}),
    progressSink: process.stderr.isTTY ? { isTTY: true, write: (text) => process.stderr.write(text) } : null,
    // A testing aid only (crash tests stop the process between build steps); not a configuration key.
    buildStepDelayMs: Number(process.env['OUTPOINT_TEST_BUILD_STEP_DELAY_MS'] ?? 0),
    ...(initialLoader ? { initialLoader: () => timedLoader(initialLoader(), options.writes, config.id, params.features) } : {}),
  });
  const notifier: BlockNotifier =
    config.zmq === null
      ? new PollNotifier(node, { pollMs: config.pollMs })
      : // sequence (Core 0.21+): one ordered stream for blocks and mempool; hashblock/hashtx (Dogecoin Core 1.14) plus polling.
        new ZmqNotifier(node, { ...config.zmq.endpoints, ...(config.zmq.reconcileMs !== null ? { reconcileMs: config.zmq.reconcileMs } : {}) });
  notifier.on('tip', () => indexer.poke());
  notifier.on('mempool', () => indexer.mempoolChanged());
  notifier.on('announce', ({ txid, entered }) => indexer.announceTx(txid, entered));
  notifier.on('error', (err) => logger.warn('node notifications failed; retrying', { network: config.id, error: err.message }));
  const p2p = new P2pRuntime(config, params, store.network(config.id), bus, node, logger, () => indexer.isSyncing);
  return { config, node, rawTxs, rawTxNode, indexer, notifier, p2p };
}
