import type { ChainSource, Logger, NetworkStore, RawTxSource } from '../core/index.js';
import type { NetworkParams } from '../chains/network-params.js';
import type { BlockFetcher } from './block-fetcher.js';
import { buildIndexes, inlineLoader, loadBlocks, type InitialLoadContext, type RawBlockLoader } from './initial-load.js';
import type { ProgressSink } from './sync-progress.js';
import type { SyncStatusWriter } from './sync-status-writer.js';

/** The indexer's options an initial load uses. */
export interface InitialLoadOptions {
  readonly params: NetworkParams;
  readonly source: ChainSource;
  readonly store: NetworkStore;
  readonly logger: Logger;
  readonly progressSink?: ProgressSink | null;
  /** Testing aid: a pause before each build step of an initial load (initial-load.ts). */
  readonly buildStepDelayMs?: number;
  /**
   * Makes the loader of an initial load (default: parse on this thread, append through `store`). main/ gives SQLite
   * stores a worker-thread loader, so that parsing and SQLite's synchronous writes run beside the fetching.
   */
  readonly initialLoader?: () => RawBlockLoader;
  /** raw_txs = "node": raw txs for the bulk build's rare reads; told each block connected at the tip (its recent cache). */
  readonly rawTxs?: RawTxSource;
}

/** What one initial load needs from its network's indexer. */
export interface InitialLoadRun extends InitialLoadOptions {
  /** Raw blocks only: the loader parses them. */
  readonly fetcher: BlockFetcher;
  readonly syncStatus: SyncStatusWriter;
  readonly now: () => number;
  /** `outpoint index --bulk`: throw the index away and load it again. */
  readonly rebuild: boolean;
  /** Called once the rebuild has begun (the index was reset), so a later run does not reset it again. */
  rebuildStarted(): void;
  stopping(): boolean;
}

/**
 * Seconds left in the index build before `step` (1-based) of `steps`: on the bench chains the build takes about half as
 * long as the load before it (docs/benchmarks.md, "Initial sync"), spread evenly over the steps. A rough figure, for
 * the 503 message and the sync status, not a promise.
 */
function buildEta(loadSeconds: number, step: number, steps: number): number {
  return Math.round(0.5 * Math.max(loadSeconds, 0) * ((steps - step + 1) / steps));
}

/**
 * An empty index (or one asked to be rebuilt) is loaded in bulk, then its indexes are built (initial-load.ts); a
 * load or build a killed process left half done is resumed. Does nothing for an index that has a tip.
 */
export async function runInitialLoad(run: InitialLoadRun): Promise<void> {
  const { store, source, logger, params } = run;
  let state = await store.getBulkLoad();
  if (!state) {
    if (run.rebuild) {
      logger.warn('rebuilding the index from scratch (bulk)', { network: params.id });
      await store.resetChain();
    } else if ((await store.getTip()) !== null) {
      return;
    }
    run.rebuildStarted();
    try {
      await store.beginBulkLoad(run.now());
    } catch (err) {
      // An index whose every block was disconnected still has rows: it follows the node incrementally.
      logger.warn('initial load not possible; indexing incrementally', { network: params.id, error: err instanceof Error ? err.message : String(err) });
      return;
    }
    state = { step: 0, startedAt: run.now() };
  } else if (state.step === 0) {
    await store.resumeBulkLoad?.();
  }
  const loader = state.step === 0 ? (run.initialLoader?.() ?? inlineLoader(store, params.features)) : inlineLoader(store, params.features);
  const loadStartedAt = state.startedAt;
  let target: number | null = null;
  const ctx: InitialLoadContext = {
    network: params.id, source, store, fetcher: run.fetcher, loader, logger, progressSink: run.progressSink ?? null,
    stopping: run.stopping,
    ...(run.buildStepDelayMs ? { buildStepDelayMs: run.buildStepDelayMs } : {}),
    ...(run.rawTxs ? { rawTxs: run.rawTxs } : {}),
    onLoaded: async (height, nodeHeight, eta) => {
      target = nodeHeight;
      await run.syncStatus.progress(height, nodeHeight, 'loading', eta);
    },
    onBuildStep: async (step, steps) => {
      const tip = await store.getTip();
      target ??= await source.getBlockCount();
      await run.syncStatus.progress(tip?.height ?? null, target, 'building-indexes', buildEta(run.now() - loadStartedAt, step, steps));
    },
  };
  try {
    if (state.step === 0) {
      await loadBlocks(ctx);
      if (run.stopping()) return;
    }
  } finally {
    await loader.close();
  }
  await buildIndexes(ctx);
  const tip = await store.getTip();
  await run.syncStatus.progress(tip?.height ?? null, target ?? (await source.getBlockCount()), 'catching-up', null);
}
