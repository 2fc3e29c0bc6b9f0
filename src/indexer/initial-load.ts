/**
 * Initial sync of an empty index (docs/indexer.md, "Initial sync"): phase "loading" appends the node's blocks to
 * index-free tables (BulkLoader.loadBlocks: no reads, no events, no mempool), phase "building indexes" derives what
 * the load deferred (finishBulkLoad). The indexer then catches up block by block as usual ("catching up") and is
 * ready. Every step is atomic in the store, so a killed process resumes where it stopped: loading from the last
 * batch appended, building from the last step done.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { BlockToConnect, ChainSource, ChainTip, Logger, NetworkStore, RawTxSource } from '../core/index.js';
import type { ChainFeatures } from '../chains/network-params.js';
import { parseBlock } from '../chains/parsing.js';
import { runBatchPipeline } from './batch-pipeline.js';
import type { BlockFetcher } from './block-fetcher.js';
import { SyncProgress, type ProgressSink } from './sync-progress.js';

/** Where loaded blocks go: parsed and appended to the store (inline, or on a worker thread with its own connection). */
export interface RawBlockLoader {
  /**
   * Appends the blocks at fromHeight, fromHeight + 1, …; resolves the new tip. A loader may resolve before the batch is
   * written (the PostgreSQL worker loader writes one batch while it prepares the next): a failed write then rejects the
   * next load() or close(), and the store's tip says what was written. `last`: the load's last batch (up to the node's
   * height when it began), after which a loader that holds rows back (PostgreSQL's worker) writes them all.
   */
  load(fromHeight: number, raws: readonly Uint8Array[], last?: boolean): Promise<ChainTip>;
  /** Waits for every write it began (rejects with a failed one's error), then lets go of what it holds. */
  close(): Promise<void>;
  /**
   * True when load() resolves while the batch is still being written on the store's own session (PostgreSQL): a
   * batch's sync status is then written without holding up the next batch, since it waits behind the batch's rows.
   * Otherwise the status is written between batches, as before: SQLite's worker would hold its write lock meanwhile.
   */
  readonly writesBehind?: boolean;
}

/** A batch's raw blocks parsed, at fromHeight, fromHeight + 1, … (this thread's loader and the worker threads' alike). */
export function parseRawBlocks(fromHeight: number, raws: readonly Uint8Array[], features: ChainFeatures): BlockToConnect[] {
  return raws.map((raw, i) => ({ height: fromHeight + i, block: parseBlock(raw, features) }));
}

/** Parses on this thread and appends through the indexer's own store. */
export function inlineLoader(store: NetworkStore, features: ChainFeatures): RawBlockLoader {
  return {
    load: (fromHeight, raws) => store.loadBlocks(parseRawBlocks(fromHeight, raws, features)),
    close: async () => undefined,
  };
}

export interface InitialLoadContext {
  readonly network: string;
  readonly source: ChainSource;
  readonly store: NetworkStore;
  /** A fetcher that does not parse: the loader does. */
  readonly fetcher: BlockFetcher;
  readonly loader: RawBlockLoader;
  readonly logger: Logger;
  readonly progressSink: ProgressSink | null;
  /** True once the indexer is asked to stop: loading ends between batches (the build runs on to its next step). */
  readonly stopping: () => boolean;
  /** Told the heights as blocks are appended (sync status). */
  readonly onLoaded?: (height: number, target: number, etaSeconds: number | null) => void | Promise<void>;
  /** Told each build step as it starts. */
  readonly onBuildStep?: (step: number, steps: number, name: string) => void | Promise<void>;
  /** Waits this long before each build step (tests use it to stop a process between steps). */
  readonly buildStepDelayMs?: number;
  /** raw_txs = "node": where the build reads the few raw txs it needs (colliding script keys). */
  readonly rawTxs?: RawTxSource;
}

/**
 * Appends blocks up to the node's tip. Ends early (returns) when the node's chain no longer extends ours (a reorg
 * near the tip): the build runs first, and the incremental path then rolls back with indexes in place.
 */
export async function loadBlocks(ctx: InitialLoadContext): Promise<ChainTip | null> {
  const { source, store, fetcher } = ctx;
  let current = await store.getTip();
  const nodeHeight = await source.getBlockCount();
  const next = current ? current.height + 1 : 0;
  if (next > nodeHeight) return current;
  const progress = new SyncProgress(ctx.network, ctx.logger, ctx.progressSink, { phase: 'loading' });
  // The sync status of the batch before, still being written. With a loader that writes behind, not awaited at once:
  // the store writes it after the batch's own rows, so waiting would keep the loader from taking the next batch.
  let reported: Promise<void> = Promise.resolve();
  const pipeline = runBatchPipeline({
    fetcher, from: next, to: nodeHeight, stopping: ctx.stopping, progress,
    writtenHeight: () => (current ? current.height : null),
    write: async (batch) => {
      if (current && prevHashOf(batch.raws[0]!) !== current.hash) {
        ctx.logger.warn('the node reorganised during the initial load: building indexes before following it', { network: ctx.network });
        return false;
      }
      const writeStarted = performance.now();
      current = await ctx.loader.load(batch.fromHeight, batch.raws, batch.fromHeight + batch.raws.length - 1 >= nodeHeight);
      progress.wrote(performance.now() - writeStarted);
      const eta = progress.update(current.height, nodeHeight, batch.raws.length, batch.txCount);
      await reported;
      reported = Promise.resolve(ctx.onLoaded?.(current.height, nodeHeight, eta));
      // Handled here; awaited (and its failure thrown) before the next report or at the end.
      reported.catch(() => undefined);
      if (!ctx.loader.writesBehind) await reported;
      return true;
    },
  });
  try {
    await pipeline;
  } catch (err) {
    // The last batch's status is written before the failure is passed on (a resumed load reads it).
    await reported.catch(() => undefined);
    throw err;
  }
  await reported;
  return current;
}

/** Runs the build steps left, logging each with the time the earlier ones took. */
export async function buildIndexes(ctx: InitialLoadContext): Promise<void> {
  const started = performance.now();
  let stepStarted = started;
  let last: { step: number; steps: number; name: string } | null = null;
  const finishStep = (): void => {
    if (!last) return;
    ctx.logger.info('building indexes', {
      network: ctx.network, step: last.step, steps: last.steps, done: last.name, seconds: round2((performance.now() - stepStarted) / 1000),
    });
  };
  await ctx.store.finishBulkLoad(async (s) => {
    finishStep();
    last = s;
    if (ctx.buildStepDelayMs) await delay(ctx.buildStepDelayMs);
    stepStarted = performance.now();
    if (ctx.progressSink?.isTTY) ctx.progressSink.write(`\r${ctx.network} building indexes: step ${s.step}/${s.steps} ${s.name}…   `);
    await ctx.onBuildStep?.(s.step, s.steps, s.name);
  }, ctx.rawTxs);
  finishStep();
  if (ctx.progressSink?.isTTY) ctx.progressSink.write('\n');
  ctx.logger.info('indexes built', { network: ctx.network, seconds: round2((performance.now() - started) / 1000) });
}

/** The previous-block hash of a raw block (header bytes 4..36, reversed for display). */
function prevHashOf(raw: Uint8Array): string {
  return Buffer.from(raw.subarray(4, 36)).reverse().toString('hex');
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
