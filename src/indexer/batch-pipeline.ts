/**
 * Catching up with the node, batch by batch, for the initial load and the incremental sync alike: each batch is
 * fetched while the one before it is written, so the node and the store work in parallel. The wait for each batch is
 * told to the progress report (which the writer tells its write times); the report finishes however the run ends,
 * a reorg found mid-fetch or a failed write included, so its summary counts what was written.
 */
import type { BlockFetcher, FetchedBatch } from './block-fetcher.js';
import type { SyncProgress } from './sync-progress.js';

export interface BatchPipeline {
  readonly fetcher: BlockFetcher;
  /** The first height to fetch and the node's height. */
  readonly from: number;
  readonly to: number;
  /** True once the indexer is asked to stop: no batch is fetched after the one being written. */
  readonly stopping: () => boolean;
  readonly progress: SyncProgress | null;
  /** Writes a batch; false stops the run (the node's chain no longer extends ours). */
  write(batch: FetchedBatch): Promise<boolean>;
  /** The height written last, for the report's summary. */
  writtenHeight(): number | null;
}

export async function runBatchPipeline(p: BatchPipeline): Promise<void> {
  const fetchFrom = (height: number): Promise<FetchedBatch> => {
    const promise = p.fetcher.fetch(height, p.fetcher.nextCount(p.to - height + 1));
    // Marks a prefetch that fails while a batch is being written as handled; awaiting it still throws.
    promise.catch(() => undefined);
    return promise;
  };
  let pending: Promise<FetchedBatch> | null = fetchFrom(p.from);
  try {
    while (pending) {
      const waitStarted = performance.now();
      const batch: FetchedBatch = await pending;
      p.progress?.waited(performance.now() - waitStarted);
      const next = batch.fromHeight + batch.raws.length;
      pending = next <= p.to && !p.stopping() ? fetchFrom(next) : null;
      if (!(await p.write(batch))) break;
    }
  } finally {
    p.progress?.finish(p.writtenHeight());
  }
}
