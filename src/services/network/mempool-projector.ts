import type { EventBus } from '../../core/domain/events.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { MempoolSource, MempoolSourceEntry } from '../../core/sources/mempool-source.js';
import type { MempoolTxSummary } from '../../core/store/chain-reads.js';
import type { NetworkParams } from '../../chains/network-params.js';
import type { NetworkId } from '../../core/domain/network.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ProjectedBlock } from './projection/mempool-projection.js';
import { ProjectionThread } from './projection/projection-thread.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { StoreMempoolSource } from './store-mempool-source.js';
import { newestMempoolTxs, type NewestMempoolTx } from './newest-mempool-txs.js';
import { feeHistogram, type FeeHistogramBand } from './fee-histogram.js';

/** The projection of docs/api-v3.md: the next 6 blocks. */
export const PROJECTED_BLOCKS = 6;
/** The longest target `estimatesmartfee` takes (Bitcoin Core): no projection for fees goes deeper. */
export const MAX_PROJECTION_DEPTH = 1_008;
/** While fee estimates were asked for within this window, every recomputation follows the mempool deep. */
export const DEEP_WINDOW_MS = 10 * 60_000;

/**
 * How deep the mempool is followed for fee estimates (services/fees): a day of blocks (144 Bitcoin, 576 Litecoin),
 * at most MAX_PROJECTION_DEPTH. Following it past the spec's 6 blocks costs up to twice the projection's time for a
 * mempool of many blocks (docs/benchmarks.md, "Wallets and fees"), so it is done only while fees are asked for.
 */
export function projectionDepth(params: NetworkParams): number {
  return Math.min(MAX_PROJECTION_DEPTH, Math.ceil((24 * 60 * 60) / params.targetSpacing));
}
/** Mempool events arriving within this window cause one recomputation. */
export const DEFAULT_DEBOUNCE_MS = 500;
/**
 * Recomputations triggered by events take at most this share of the process's time: the next one starts no sooner
 * than (1 / share - 1) × the last one's duration after it ended. A mainnet-sized mempool (20,000-30,000 txs) costs a
 * pass tens of milliseconds (the node's verbose mempool of over 10 MB of JSON, the projection, the index's sizes);
 * twice a second at 10 tx/s that was a seventh of the service's CPU (docs/benchmarks.md, "Mempool at mainnet
 * rates"). A small mempool's pass takes a few milliseconds, so the debounce alone paces it as before.
 */
export const MAX_BUSY_SHARE = 0.2;
/** Snapshot txs looked up in the kept index facts per turn of the event loop (indexedFacts). */
const FACTS_PER_TURN = 5_000;
/** New txs' index facts read per statement, the event loop turning between (a SQLite read holds it while it runs). */
const FACTS_PER_READ = 2_000;
/** Without events (an API-only process has no indexer on its bus) the projection is refreshed when older than this. */
export const DEFAULT_MAX_AGE_MS = 10_000;

export interface MempoolProjection {
  readonly txCount: number;
  /** Serialized bytes of the whole mempool. */
  readonly bytes: number;
  /** UNIX seconds of the mempool snapshot it was computed from. */
  readonly updatedAt: number;
  readonly blocks: readonly ProjectedBlock[];
  /** The node's mempool entry rate (base units per vbyte): what a tx needs when blocks have room to spare. */
  readonly minFeeRate: number;
  /**
   * The rate a new tx needs to enter each block the mempool fills, from the next one on: the 6 projected blocks, or
   * projectionDepth blocks when `deep`; every block after them takes minFeeRate.
   */
  readonly entryRates: readonly number[];
  /** Whether entryRates follow the mempool projectionDepth blocks deep (fee estimates asked for lately). */
  readonly deep: boolean;
  /** The newest txs of the same snapshot (the explorer's mempool page: count, projection and list agree). */
  readonly newest: readonly NewestMempoolTx[];
  /** The same snapshot by fee rate (the explorer's histogram). */
  readonly feeHistogram: readonly FeeHistogramBand[];
}

interface NetworkState {
  current: MempoolProjection | null;
  computedAtMs: number;
  /**
   * How long the last pass took (ms), from its start to its end: paces the next event-triggered one (MAX_BUSY_SHARE).
   * The projection runs in slices with other work between them (time-sliced.ts). Counting only the slices went with
   * more frequent passes in the mempool-rate bench (0.59 to 1.0 per second, the projector's CPU from 17 to 24 % of
   * a core): the whole pass counts, as before the slices, so the rests are at least as long as they were.
   */
  lastPassMs: number;
  /** Until when recomputations follow the mempool deep (fee estimates were asked for). */
  deepUntilMs: number;
  running: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  /** An event-triggered pass waits for a pass under way to end (then is scheduled with its rest). */
  waiting: boolean;
  /** The index's facts (serialized size, fee, first seen) of the last pass's txs, by txid: a pass reads only new ones. */
  indexed: Map<string, MempoolTxSummary>;
}

export interface MempoolProjectorOptions {
  readonly networks: NetworkRegistry;
  /** Per network; networks without one project the index's own mempool (no ancestor data). */
  readonly sources: ReadonlyMap<NetworkId, MempoolSource>;
  readonly events: EventBus | null;
  readonly logger: Logger;
  readonly debounceMs?: number;
  readonly maxAgeMs?: number;
}

/**
 * Keeps one projection per network, recomputed when the mempool changes (tx accepted/removed, block
 * (dis)connected), coalescing bursts of events: requests read the last result, never compute it.
 */
export class MempoolProjector {
  private readonly states = new Map<NetworkId, NetworkState>();
  private readonly unsubscribe: (() => void) | null;
  private closed = false;
  private readonly thread: ProjectionThread;

  constructor(private readonly options: MempoolProjectorOptions) {
    this.thread = new ProjectionThread((error) => options.logger.warn('mempool projection worker failed: projecting on the event loop', { error: error.message }));
    this.unsubscribe =
      options.events?.subscribe((event) => {
        if (event.kind === 'tx_accepted' || event.kind === 'tx_removed' || event.kind === 'block_connected' || event.kind === 'block_disconnected') {
          if (options.networks.find(event.network)) this.schedule(event.network);
        }
      }) ?? null;
  }

  /**
   * The latest projection; the first call per network (and a stale one) computes it. `deep`: entry rates as deep as
   * fee estimates look (the first such call waits for a deep pass; later ones read the last).
   */
  async current(ctx: NetworkContext, options: { readonly deep?: boolean } = {}): Promise<MempoolProjection> {
    const state = this.state(ctx.id);
    if (options.deep) state.deepUntilMs = Date.now() + DEEP_WINDOW_MS;
    const stale = Date.now() - state.computedAtMs > (this.options.maxAgeMs ?? DEFAULT_MAX_AGE_MS);
    // A pass that started before the deep request may still be shallow: one more then.
    for (let i = 0; i < 2 && (state.current === null || (options.deep && !state.current.deep)); i++) await this.refresh(ctx.id);
    if (stale) void this.refresh(ctx.id);
    return state.current!;
  }

  /** Recomputes now (coalescing with a run in progress). */
  refresh(id: NetworkId): Promise<void> {
    const state = this.state(id);
    state.running ??= this.compute(id)
      .catch((error: unknown) => {
        this.options.logger.warn('mempool projection failed', { network: id, error: (error as Error).message });
        if (state.current === null) throw error;
      })
      .finally(() => {
        state.running = null;
      });
    return state.running;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    for (const state of this.states.values()) if (state.timer) clearTimeout(state.timer);
    void this.thread.close();
  }

  private schedule(id: NetworkId): void {
    const state = this.state(id);
    if (state.timer || state.waiting || this.closed) return;
    const rest = state.computedAtMs + state.lastPassMs * (1 / MAX_BUSY_SHARE - 1) - Date.now();
    state.timer = setTimeout(() => {
      state.timer = null;
      if (state.running) {
        // A pass (a request's or a stale refresh) is under way: the rest counts from its end, so wait and schedule again.
        state.waiting = true;
        void state.running.catch(() => undefined).finally(() => {
          state.waiting = false;
          this.schedule(id);
        });
        return;
      }
      this.refresh(id).catch(() => undefined);
    }, Math.max(this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS, rest));
    state.timer.unref();
  }

  private async compute(id: NetworkId): Promise<void> {
    const started = performance.now();
    const ctx = this.options.networks.resolve(id);
    const source = this.options.sources.get(id) ?? new StoreMempoolSource(ctx.reader);
    const snapshot = await source.snapshot();
    // The node's verbose mempool has no serialized sizes: take them from the index where it has the tx.
    const needSizes = snapshot.entries.some((e) => e.size === null);
    const state = this.state(id);
    const indexed = needSizes ? await this.indexedFacts(state, ctx, snapshot.entries) : null;
    const entries = indexed ? snapshot.entries.map((e) => (e.size === null ? { ...e, size: indexed.get(e.txid)?.size ?? e.vsize } : e)) : snapshot.entries;
    // One pass serves both the spec's next blocks and, while fees are asked for, the fee service's entry rates.
    const deep = Date.now() < state.deepUntilMs;
    const depth = deep ? Math.max(PROJECTED_BLOCKS, projectionDepth(ctx.params)) : PROJECTED_BLOCKS;
    // On a worker thread: on the event loop, even in slices, a pass over a 20,000-30,000-tx mempool made the txs the
    // node announced meanwhile reach realtime clients later (projection-thread.ts).
    const { blocks, startupMs } = await this.thread.project(entries, { maxBlockWeight: ctx.params.maxBlockWeight, blocks: depth, minFeeRate: snapshot.minFeeRate });
    // The walks below (sizes, fee histogram, newest txs: tens of ms on such a mempool) start after a turn, not in the
    // last slice's hold.
    await yieldToEventLoop();
    state.current = {
      txCount: entries.length,
      bytes: entries.reduce((sum, e) => sum + (e.size ?? e.vsize), 0),
      updatedAt: snapshot.takenAt,
      blocks: blocks.slice(0, PROJECTED_BLOCKS),
      minFeeRate: snapshot.minFeeRate,
      entryRates: blocks.filter((b) => b.numTxs > 0).map((b) => b.minFeeRatePossible),
      deep,
      feeHistogram: feeHistogram(entries),
      newest: newestMempoolTxs(entries, indexed, snapshot.takenAt),
    };
    state.computedAtMs = Date.now();
    state.lastPassMs = performance.now() - started - startupMs;
  }

  /**
   * The index's facts of the snapshot's txs. Those of the last pass are kept and only txs new to this pass are read,
   * by txid: reading the whole stored mempool at every pass scanned its table (raw txs included), an eighth of the
   * service's CPU with a 20,000-tx mempool (docs/benchmarks.md, "Mempool at mainnet rates"). A tx's facts never
   * change while its txid is in the mempool; one the index does not hold yet is asked for again next pass.
   */
  private async indexedFacts(state: NetworkState, ctx: NetworkContext, entries: readonly MempoolSourceEntry[]): Promise<Map<string, MempoolTxSummary>> {
    // Kept in place: a new map of every snapshot tx at every pass (25,000 sets and their garbage) was the projector's
    // second-largest item in the mempool-rate bench's profile; the facts of txs that left are dropped, when any did.
    const indexed = state.indexed;
    const missing: string[] = [];
    let known = 0;
    for (const [i, e] of entries.entries()) {
      // A turn of the event loop every FACTS_PER_TURN txs: the walk of a 30,000-tx snapshot took ~25 ms in one piece.
      if (i > 0 && i % FACTS_PER_TURN === 0) await yieldToEventLoop();
      if (indexed.has(e.txid)) known++;
      else missing.push(e.txid);
    }
    if (known !== indexed.size) {
      const present = new Set(entries.map((e) => e.txid));
      for (const txid of indexed.keys()) if (!present.has(txid)) indexed.delete(txid);
    }
    // In reads of FACTS_PER_READ txids: the first pass over a mempool found at start (30,000 txs) read them all in one
    // SQLite read that held the event loop 120-330 ms (the real-node bench's profile).
    for (let at = 0; at < missing.length; at += FACTS_PER_READ) {
      if (at > 0) await yieldToEventLoop();
      const slice = missing.slice(at, at + FACTS_PER_READ);
      const found = new Map((await ctx.reader.getMempoolEntriesOf(slice)).map((facts) => [facts.txid, facts]));
      // Keyed by the snapshot's own txid strings: a lookup then finds its key by identity, without comparing 64
      // characters of two copies (the strings from the index are other objects).
      for (const txid of slice) {
        const facts = found.get(txid);
        if (facts) indexed.set(txid, facts);
      }
    }
    return indexed;
  }

  private state(id: NetworkId): NetworkState {
    let state = this.states.get(id);
    if (!state) {
      state = { current: null, computedAtMs: 0, lastPassMs: 0, deepUntilMs: 0, running: null, timer: null, waiting: false, indexed: new Map() };
      this.states.set(id, state);
    }
    return state;
  }
}
