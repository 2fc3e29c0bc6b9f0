import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { WriterStandbyError, type Block, type ChainTip, type ConnectedBlock, type EventBus } from '../core/index.js';
import { runBatchPipeline } from './batch-pipeline.js';
import { BlockFetcher, type FetchedBatch } from './block-fetcher.js';
import { rollBackToNodeChain } from './chain-reorg.js';
import { runInitialLoad, type InitialLoadOptions } from './initial-load-run.js';
import { blockEvents, mempoolTxEvents } from './indexer-events.js';
import { MempoolSampler, type MempoolSamplerOptions } from './mempool/mempool-sampler.js';
import { MempoolSync, type MempoolSyncResult } from './mempool/mempool-sync.js';
import { RemovedMempoolPruner } from './mempool/removed-mempool-pruner.js';
import { PassSignals } from './pass-signals.js';
import { SyncProgress } from './sync-progress.js';
import { quietWhileSyncing, SyncStatusWriter } from './sync-status-writer.js';

/** Mempool txs announced per turn of the event loop (their events rendered, logged and sent: ~0.1-0.3 ms each). */
const PUBLISH_SLICE = 250;
/**
 * Events of a pass's mempool txs that may wait behind the publisher (in the event log's or webhook matching's queue):
 * a whole mempool taken in one pass (100,000 txs, ~4 events each) goes out at the pace it is logged, so the next
 * block's `block_update`, which keeps its place behind them, waits for at most this many (a fraction of a second),
 * not for the 50,000 the queues hold at most.
 */
const MEMPOOL_EVENTS_AHEAD = 2_000;

export interface NetworkIndexerOptions extends InitialLoadOptions {
  readonly bus: EventBus;
  /** Resync even without a notification this often (ms): a safety net for missed notifications. */
  readonly idleResyncMs?: number;
  readonly now?: () => number;
  readonly batchTxTarget?: number;
  /** getblock requests in flight while syncing (BlockFetcher's `parallel`). */
  readonly fetchRequests?: number;
  /** Replaced / double-spent mempool txs are forgotten this long after removal (default 72 h; 0 keeps them). */
  readonly removedMempoolKeepSeconds?: number;
  /**
   * Rebuild the network's index from scratch with an initial (bulk) load (`outpoint index --bulk`). Without it an
   * empty index is bulk-loaded and an existing one catches up incrementally.
   */
  readonly bulk?: boolean;
  /** While another process holds the network's writer lock: how often to try to take over (ms, default 1000). */
  readonly standbyPollMs?: number;
  /** The mempool's size sampled for the explorer's 24-hour chart (mempool-sampler.ts); none without it. */
  readonly mempoolSamples?: MempoolSamplerOptions;
}

/**
 * The single writer of one network: catches up with the node's chain, follows reorgs and keeps the
 * mempool. Runs are serialised; notifications arriving mid-run cause exactly one more run.
 */
export class NetworkIndexer {
  private readonly fetcher: BlockFetcher;
  /** The initial load's fetcher: raw blocks only, its loader parses them. */
  private readonly rawFetcher: BlockFetcher;
  private readonly mempool: MempoolSync;
  private readonly pruner: RemovedMempoolPruner;
  private readonly sampler: MempoolSampler | null;
  /** The initial-sync status (API processes answer 503 until ready) ... */
  private readonly syncStatus: SyncStatusWriter;
  /** ... and this network's events, unpublished until then. */
  private readonly bus: EventBus;
  private readonly now: () => number;
  /**
   * `idle`: never started (syncOnce alone runs to the tip); `running`: the loop runs; `stopping`: stop() was called,
   * the loop ends after its pass and an initial sync between batches.
   */
  private run: 'idle' | 'running' | 'stopping' = 'idle';
  /** The loop, while it runs. */
  private loopDone: Promise<void> | null = null;
  private readonly signals = new PassSignals();
  /**
   * Where this process stands as the network's writer: `catching-up` until the index has reached the node's tip once,
   * `following` from then on, `standby` while another process writes the network (PostgreSQL) and this one waits to
   * take over (it has caught up before if `wasCaughtUp`).
   */
  private position: 'catching-up' | 'following' | 'standby' = 'catching-up';
  private wasCaughtUp = false;
  /** The tip the last block part of a pass reached (undefined: none yet); the next pass of announcements alone keeps it. */
  private reached: ChainTip | null | undefined = undefined;
  private consecutiveFailures = 0;
  /** `bulk` was asked for and not done yet in this process. */
  private rebuild: boolean;

  constructor(private readonly options: NetworkIndexerOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    const fetchOptions = {
      ...(options.batchTxTarget !== undefined ? { targetTxs: options.batchTxTarget } : {}),
      ...(options.fetchRequests !== undefined ? { parallel: options.fetchRequests } : {}),
    };
    this.fetcher = new BlockFetcher(options.source, options.params.features, fetchOptions);
    this.rawFetcher = new BlockFetcher(options.source, options.params.features, { ...fetchOptions, parse: false });
    this.mempool = new MempoolSync(options.source, options.store, options.params.features.mweb, this.now);
    this.pruner = new RemovedMempoolPruner(options.store, options.logger, options.removedMempoolKeepSeconds ?? 72 * 3600);
    this.sampler = options.mempoolSamples ? new MempoolSampler(options.params.id, options.mempoolSamples, options.logger, this.now) : null;
    this.rebuild = options.bulk ?? false;
    this.syncStatus = new SyncStatusWriter(options.store, { bulk: options.bulk ?? false });
    this.bus = quietWhileSyncing(options.bus, this.syncStatus);
  }

  get id(): string {
    return this.options.params.id;
  }

  /**
   * True until the first pass has decided, and through an initial sync: the network answers no chain queries and
   * publishes no events (the P2P side holds back its store checks and events too).
   */
  get isSyncing(): boolean {
    return this.syncStatus.syncing;
  }

  /** True once the index has reached the node's tip at least once. */
  get isCaughtUp(): boolean {
    return this.wasCaughtUp;
  }

  /** True while another process writes this network (PostgreSQL) and this indexer waits to take over. */
  get isStandby(): boolean {
    return this.position === 'standby';
  }

  private get stopping(): boolean {
    return this.run === 'stopping';
  }

  start(): void {
    if (this.run === 'running') return;
    this.run = 'running';
    this.loopDone = this.loop();
  }

  /** Something changed at the node (a new block, or anything else: the next pass looks at the tip first). */
  poke(): void {
    this.signals.tip();
  }

  /**
   * The node's mempool may have changed in ways not announced (polling, hashtx, a lost or doubtful message): the next
   * pass diffs its whole txid list.
   */
  mempoolChanged(): void {
    this.mempool.distrust();
    this.poke();
  }

  /** The node announced that a tx entered or left its mempool (ZMQ `sequence`): a pass takes it without the list. */
  announceTx(txid: string, entered: boolean): void {
    this.mempool.announce(txid, entered);
    // Not a tip signal: a pass for announcements alone skips the block part (see syncOnce).
    this.signals.changed();
  }

  async stop(): Promise<void> {
    this.run = 'stopping';
    this.signals.interrupt();
    await this.loopDone;
    this.loopDone = null;
  }

  /**
   * One full pass: blocks to the node's tip, then the mempool. Used by the loop and by tests. `blocks: false` (the loop,
   * when nothing but mempool announcements came since the last pass): the tip the last pass reached stands, and the
   * pass is the mempool's alone. A ZMQ `sequence` burst of 100 tx/s makes a pass every few txs; the block part's
   * store reads and node requests (the tip, a block count) were most of such a pass. A block is still found at once:
   * ZMQ announces it (`tip` pokes), the mempool pass itself asks the node's tip, and the idle resync looks anyway.
   */
  async syncOnce(options: { readonly blocks?: boolean } = {}): Promise<{ incomplete: boolean; more?: boolean }> {
    let tip: ChainTip | null;
    if (options.blocks === false && this.wasCaughtUp && this.reached !== undefined) tip = this.reached;
    else {
      // Before anything is written (a resumed initial load's worker writes through its own connection).
      await this.options.store.claimWriter();
      // First decision of the run: an initial sync (empty index, --bulk, or one a stopped process left) or ready.
      await this.syncStatus.begin(await this.options.store.getTip());
      await this.initialLoad();
      // Stopped during the initial load: nothing else may touch the index before the load is finished.
      if (await this.options.store.getBulkLoad()) return { incomplete: false };
      tip = await this.syncBlocks();
      this.reached = tip;
    }
    const network = this.options.params.id;
    // Each write's txs are announced as soon as it is stored (a pass takes up to 5,000), paced to the event log.
    const publish = async (added: MempoolSyncResult['added'], count: number): Promise<void> => {
      for (const [i, { tx, result: stored, seenAt }] of added.entries()) {
        // A whole mempool found at start is announced with turns of the event loop between slices: rendering and
        // logging its events held the loop for seconds.
        if (i > 0 && i % PUBLISH_SLICE === 0) {
          await yieldToEventLoop();
          await this.bus.absorbed?.(MEMPOOL_EVENTS_AHEAD);
        }
        // Subscribers see each input's address and value (balance_update): the write result carries them.
        for (const event of mempoolTxEvents(network, tx, seenAt, stored.fee, stored.deltas, count, stored.deltas.length > 0 ? stored.prevouts : null)) {
          this.bus.publish(event);
        }
      }
      await this.bus.absorbed?.(MEMPOOL_EVENTS_AHEAD);
    };
    const result = await this.mempool.sync(tip?.hash ?? null, publish);
    // The node's tip moved during the mempool pass: the next one connects it.
    if (result.count === null) this.signals.lookAtBlocks();
    // The last write's txs carry the size the pass left (counted by the pass: reading it from the store scanned the
    // whole mempool table at every pass, before the stats row).
    const last = result.added.slice(result.told);
    if (last.length > 0) await publish(last, result.count ?? (await this.options.store.getMempoolInfo()).count);
    for (const { txid, reason } of result.removed) {
      this.bus.publish({ kind: 'tx_removed', network, txid, reason });
    }
    await this.pruner.maybePrune();
    await this.sampler?.maybeSample();
    return { incomplete: result.incomplete, more: result.more };
  }

  /** An empty index (or one asked to be rebuilt) is loaded in bulk first (initial-load-run.ts). */
  private async initialLoad(): Promise<void> {
    await runInitialLoad({
      ...this.options, fetcher: this.rawFetcher, syncStatus: this.syncStatus, now: this.now, rebuild: this.rebuild,
      stopping: () => this.stopping,
      rebuildStarted: () => {
        this.rebuild = false;
      },
    });
  }

  private async loop(): Promise<void> {
    const idle = this.options.idleResyncMs ?? 5000;
    while (this.run === 'running') {
      let delay = idle;
      try {
        const { incomplete, more } = await this.syncOnce(this.signals.take());
        this.consecutiveFailures = 0;
        if (this.position === 'standby') this.options.logger.info('took over as the writer of this network', { network: this.id });
        this.position = this.wasCaughtUp ? 'following' : 'catching-up';
        if (incomplete) delay = 250;
        // The mempool had more new txs than a pass takes: the next pass (the tip first) at once.
        if (more) this.signals.tip();
      } catch (err) {
        if (err instanceof WriterStandbyError) {
          // Another process writes the mempool meanwhile.
          this.mempool.forget();
          if (this.position !== 'standby') this.options.logger.info('standing by: another indexer writes this network; taking over when it stops', { network: this.id });
          this.position = 'standby';
          if (this.run !== 'running') break;
          await this.signals.sleep(this.options.standbyPollMs ?? 1000);
          continue;
        }
        this.consecutiveFailures++;
        delay = Math.min(1000 * 2 ** Math.min(this.consecutiveFailures - 1, 5), 30_000);
        this.options.logger.error('sync failed; retrying', {
          network: this.id,
          error: err instanceof Error ? err.message : String(err),
          retryInMs: delay,
        });
      }
      if (this.run !== 'running') break;
      if (!this.signals.pending) await this.signals.sleep(delay);
    }
  }

  /**
   * Brings the index to the node's tip: rolls back what the node no longer has, then catches up batch by batch; ready
   * (the initial-sync status) once at the tip. Returns the index's tip.
   */
  private async syncBlocks(): Promise<ChainTip | null> {
    const { source, store } = this.options;
    // Read again: an initial load this pass ran moved it (the status was decided at the pass's start, syncOnce).
    let tip = await this.rollBack(await store.getTip());
    const nodeHeight = await source.getBlockCount();
    const upToDate = (tip ? tip.height + 1 : 0) > nodeHeight;
    if (!upToDate) tip = await this.catchUp(tip, nodeHeight);
    if (upToDate || (tip && tip.height >= nodeHeight)) {
      this.wasCaughtUp = true;
      // Also a restart killed between the last batch of an initial sync and its `ready`.
      if (tip) await this.syncStatus.ready(tip.height, nodeHeight);
    }
    return tip;
  }

  /** Disconnects the blocks the node's chain no longer has (a reorg), announcing each; the common ancestor. */
  private async rollBack(indexTip: ChainTip | null): Promise<ChainTip | null> {
    const { params } = this.options;
    const { tip, disconnected } = await rollBackToNodeChain(this.options.source, this.options.store, indexTip);
    // Disconnected blocks' txs return to the stored mempool (even a reorg back to the same tip hash changes it).
    if (disconnected.length > 0) this.mempool.forget();
    for (const block of disconnected) {
      this.options.logger.warn('reorg: block disconnected', { network: params.id, height: block.height, hash: block.hash });
      this.bus.publish({ kind: 'block_disconnected', network: params.id, height: block.height, hash: block.hash });
    }
    return tip;
  }

  /** Connects the node's blocks after `tip` up to `nodeHeight` (batch-pipeline.ts); the index's new tip. */
  private async catchUp(from: ChainTip | null, nodeHeight: number): Promise<ChainTip | null> {
    const next = from ? from.height + 1 : 0;
    // Following the tip block by block needs no progress report; catching up does.
    const progress = this.wasCaughtUp && nodeHeight - next < 10 ? null : new SyncProgress(this.id, this.options.logger, this.options.progressSink ?? null);
    let tip = from;
    await runBatchPipeline({
      fetcher: this.fetcher, from: next, to: nodeHeight, stopping: () => this.stopping, progress,
      writtenHeight: () => (tip ? tip.height : null),
      write: async (batch) => {
        if (tip && batch.blocks[0]!.header.prevHash !== tip.hash) {
          // The node reorganised while we were fetching: the next run rolls back and retries.
          this.signals.tip();
          return false;
        }
        tip = await this.connectBatch(batch, nodeHeight, progress);
        return true;
      },
    });
    return tip;
  }

  /** Writes one batch, announces its blocks, reports progress; the new tip. */
  private async connectBatch(batch: FetchedBatch, nodeHeight: number, progress: SyncProgress | null): Promise<ChainTip> {
    const receivedAt = this.now();
    const writeStarted = performance.now();
    // Confirmed and conflicting txs leave the stored mempool: MempoolSync reads it again.
    this.mempool.forget();
    const connected = await this.options.store.connectBlocks(batch.blocks.map((block, i) => ({ height: batch.fromHeight + i, block })));
    progress?.wrote(performance.now() - writeStarted);
    for (const [i, c] of connected.entries()) this.announceBlock(batch.blocks[i]!, c, receivedAt);
    // The next batch waits for this one's events to be taken up (logged, matched): a catch-up otherwise ran ahead of
    // the event log and held ~4 KB per tx in memory until it caught up (core EventBus.absorbed).
    await this.bus.absorbed?.();
    const last = connected[connected.length - 1]!;
    progress?.update(last.height, nodeHeight, connected.length, connected.reduce((n, c) => n + c.txCount, 0));
    await this.syncStatus.progress(last.height, nodeHeight);
    return { height: last.height, hash: last.hash };
  }

  /**
   * A connected block's events. Once following the tip, also its txs' addresses (a catch-up publishes blocks, not
   * every address they touch) and its raw txs primed into the node reader's cache (raw_txs = "node").
   */
  private announceBlock(block: Block, connected: ConnectedBlock, receivedAt: number): void {
    if (this.wasCaughtUp) this.options.rawTxs?.remember?.(connected.hash, block.txs.map((tx) => ({ txid: tx.txid, raw: tx.raw })));
    const prevoutsOf = this.wasCaughtUp ? (txid: string) => connected.prevouts.get(txid) ?? null : null;
    for (const event of blockEvents(this.options.params, block, connected, receivedAt, prevoutsOf)) this.bus.publish(event);
  }
}
