/**
 * The indexer's store with every write timed (`outpoint_store_write_seconds`, per network and operation) and the
 * blocks and transactions it connected counted. A wrapper rather than timers in the sync loop: whatever path writes
 * (initial sync, following, reorgs, mempool) is measured the same way, and the loop stays about syncing.
 */
import type { ConnectedBlock, NetworkStore, NetworkWriter } from '../core/store.js';
import type { CounterMetric, HistogramMetric, Metrics } from '../core/metrics.js';

/** Every write operation of NetworkWriter (a renamed one is a compile error here). */
const WRITES = ['connectBlocks', 'disconnectTip', 'addMempoolTxs', 'removeMempoolTxs', 'pruneRemovedMempool'] as const satisfies readonly (keyof NetworkWriter)[];

const WRITE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface StoreWriteMetrics {
  readonly seconds: HistogramMetric;
  readonly blocks: CounterMetric;
  readonly txs: CounterMetric;
}

/** Once per process: the metrics every network's timed store records into. */
export function storeWriteMetrics(metrics: Metrics): StoreWriteMetrics {
  const seconds = metrics.histogram({
    name: 'outpoint_store_write_seconds',
    help: 'Time of one store write transaction, by network and operation (connectBlocks is one batch of blocks).',
    labels: ['network', 'operation'],
    buckets: WRITE_BUCKETS,
  });
  const blocks = metrics.counter({ name: 'outpoint_indexer_blocks_connected_total', help: 'Blocks the indexer connected to the index.', labels: ['network'] });
  const txs = metrics.counter({ name: 'outpoint_indexer_txs_connected_total', help: 'Transactions in the blocks the indexer connected.', labels: ['network'] });
  return { seconds, blocks, txs };
}

export function timedStore(store: NetworkStore, { seconds, blocks, txs }: StoreWriteMetrics): NetworkStore {
  const network = store.id;
  const timed = new Map<string, unknown>();
  for (const operation of WRITES) {
    const write = (store[operation] as (...args: unknown[]) => Promise<unknown>).bind(store);
    timed.set(operation, async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const result = await write(...args);
        if (operation === 'connectBlocks') {
          const connected = result as ConnectedBlock[];
          blocks.inc({ network }, connected.length);
          txs.inc({ network }, connected.reduce((n, c) => n + c.txCount, 0));
        }
        return result;
      } finally {
        seconds.observe({ network, operation }, (performance.now() - started) / 1000);
      }
    });
  }
  return new Proxy(store, {
    get(target, property) {
      if (typeof property === 'string' && timed.has(property)) return timed.get(property);
      // The target as receiver: getters and methods may use private fields, which a proxy does not have.
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
