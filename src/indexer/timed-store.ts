/**
 * The indexer's store with every write timed (`outpoint_store_write_seconds`, per network and operation) and the
 * blocks and transactions it connected counted. A wrapper rather than timers in the sync loop: whatever path writes
 * (initial load, index build, following, reorgs, mempool) is measured the same way, and the loop stays about syncing.
 */
import type { ChainFeatures } from '../chains/network-params.js';
import { peekBlock } from '../chains/block/block-peek.js';
import type { ChainTip } from '../core/domain/chain-types.js';
import type { ConnectedBlock } from '../core/store/chain-writes.js';
import type { BulkBuildStep, NetworkStore } from '../core/store/network-store.js';
import type { CounterMetric, HistogramMetric, Metrics } from '../core/infrastructure/metrics.js';
import type { RawBlockLoader } from './initial-load.js';

/** Every write operation timed as one call (a renamed one is a compile error here); finishBulkLoad is timed per step. */
const WRITES = ['connectBlocks', 'loadBlocks', 'disconnectTip', 'addMempoolTxs', 'removeMempoolTxs', 'pruneRemovedMempool'] as const satisfies readonly (keyof NetworkStore)[];

/** Up to half an hour: a build step of an initial sync on a large chain takes minutes. */
const WRITE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

export interface StoreWriteMetrics {
  readonly seconds: HistogramMetric;
  readonly blocks: CounterMetric;
  readonly txs: CounterMetric;
}

/** Once per process: the metrics every network's timed store records into. */
export function storeWriteMetrics(metrics: Metrics): StoreWriteMetrics {
  const seconds = metrics.histogram({
    name: 'outpoint_store_write_seconds',
    help: 'Time of one store write transaction, by network and operation (connectBlocks and loadBlocks: one batch of blocks; buildStep: one step of an initial sync\'s index build).',
    labels: ['network', 'operation'],
    buckets: WRITE_BUCKETS,
  });
  const blocks = metrics.counter({ name: 'outpoint_indexer_blocks_connected_total', help: 'Blocks the indexer connected to the index (initial load included).', labels: ['network'] });
  const txs = metrics.counter({ name: 'outpoint_indexer_txs_connected_total', help: 'Transactions in the blocks the indexer connected.', labels: ['network'] });
  return { seconds, blocks, txs };
}

async function timed<T>(metrics: StoreWriteMetrics, network: string, operation: string, write: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await write();
  } finally {
    metrics.seconds.observe({ network, operation }, (performance.now() - started) / 1000);
  }
}

export function timedStore(store: NetworkStore, writes: StoreWriteMetrics): NetworkStore {
  const network = store.id;
  const wrapped = new Map<string, unknown>();
  for (const operation of WRITES) {
    const write = (store[operation] as (...args: unknown[]) => Promise<unknown>).bind(store);
    wrapped.set(operation, (...args: unknown[]) => timed(writes, network, operation, () => write(...args)).then((result) => {
      if (operation === 'connectBlocks') {
        const connected = result as ConnectedBlock[];
        writes.blocks.inc({ network }, connected.length);
        writes.txs.inc({ network }, connected.reduce((n, c) => n + c.txCount, 0));
      } else if (operation === 'loadBlocks') {
        const loaded = args[0] as Parameters<NetworkStore['loadBlocks']>[0];
        writes.blocks.inc({ network }, loaded.length);
        writes.txs.inc({ network }, loaded.reduce((n, b) => n + b.block.txs.length, 0));
      }
      return result;
    }));
  }
  // Each build step runs from its onStep call to the next one (or the end of the build).
  wrapped.set('finishBulkLoad', async (onStep?: (step: BulkBuildStep) => void | Promise<void>) => {
    let stepStarted: number | null = null;
    const endStep = (): void => {
      if (stepStarted !== null) writes.seconds.observe({ network, operation: 'buildStep' }, (performance.now() - stepStarted) / 1000);
      stepStarted = null;
    };
    await store.finishBulkLoad(async (step) => {
      endStep();
      await onStep?.(step);
      stepStarted = performance.now();
    });
    endStep();
  });
  return new Proxy(store, {
    get(target, property) {
      if (typeof property === 'string' && wrapped.has(property)) return wrapped.get(property);
      // The target as receiver: getters and methods may use private fields, which a proxy does not have.
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** An initial load's loader that writes elsewhere (a worker thread's connection), timed and counted like loadBlocks. */
export function timedLoader(loader: RawBlockLoader, writes: StoreWriteMetrics, network: string, features: ChainFeatures): RawBlockLoader {
  return {
    load: async (fromHeight, raws, last): Promise<ChainTip> => {
      const tip = await timed(writes, network, 'loadBlocks', () => loader.load(fromHeight, raws, last));
      writes.blocks.inc({ network }, raws.length);
      writes.txs.inc({ network }, raws.reduce((n, raw) => n + peekBlock(raw, features).txCount, 0));
      return tip;
    },
    close: () => loader.close(),
    ...(loader.writesBehind ? { writesBehind: true } : {}),
  };
}
