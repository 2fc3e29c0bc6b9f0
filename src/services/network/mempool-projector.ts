import type { EventBus } from '../../core/domain/events.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { MempoolSource } from '../../core/sources/mempool-source.js';
import type { NetworkId } from '../../core/domain/network.js';
import { projectMempoolBlocks, type ProjectedBlock } from './mempool-projection.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { StoreMempoolSource } from './store-mempool-source.js';

/** The spec's projection: the next 6 blocks. */
export const PROJECTED_BLOCKS = 6;
/**
 * How deep the mempool is followed for fee estimates (services/fees): the longest target `estimatesmartfee` takes
 * (1,008 blocks in Bitcoin Core), a day of blocks or more on every coin.
 */
export const PROJECTION_DEPTH = 1_008;
/** Mempool events arriving within this window cause one recomputation. */
export const DEFAULT_DEBOUNCE_MS = 500;
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
   * The rate a new tx needs to enter each block the mempool fills, from the next one on, followed PROJECTION_DEPTH
   * blocks deep (fee estimates); every block after them takes minFeeRate.
   */
  readonly entryRates: readonly number[];
}

interface NetworkState {
  current: MempoolProjection | null;
  computedAtMs: number;
  running: Promise<void> | null;
  timer: NodeJS.Timeout | null;
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

  constructor(private readonly options: MempoolProjectorOptions) {
    this.unsubscribe =
      options.events?.subscribe((event) => {
        if (event.kind === 'tx_accepted' || event.kind === 'tx_removed' || event.kind === 'block_connected' || event.kind === 'block_disconnected') {
          if (options.networks.find(event.network)) this.schedule(event.network);
        }
      }) ?? null;
  }

  /** The latest projection; the first call per network (and a stale one) computes it. */
  async current(ctx: NetworkContext): Promise<MempoolProjection> {
    const state = this.state(ctx.id);
    const stale = Date.now() - state.computedAtMs > (this.options.maxAgeMs ?? DEFAULT_MAX_AGE_MS);
    if (state.current === null) await this.refresh(ctx.id);
    else if (stale) void this.refresh(ctx.id);
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
  }

  private schedule(id: NetworkId): void {
    const state = this.state(id);
    if (state.timer || this.closed) return;
    state.timer = setTimeout(() => {
      state.timer = null;
      this.refresh(id).catch(() => undefined);
    }, this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    state.timer.unref();
  }

  private async compute(id: NetworkId): Promise<void> {
    const ctx = this.options.networks.resolve(id);
    const source = this.options.sources.get(id) ?? new StoreMempoolSource(ctx.reader);
    const snapshot = await source.snapshot();
    // The node's verbose mempool has no serialized sizes: take them from the index where it has the tx.
    const needSizes = snapshot.entries.some((e) => e.size === null);
    const sizes = needSizes ? new Map((await ctx.reader.getMempoolEntries()).map((e) => [e.txid, e.size])) : null;
    const entries = sizes ? snapshot.entries.map((e) => (e.size === null ? { ...e, size: sizes.get(e.txid) ?? e.vsize } : e)) : snapshot.entries;
    // One pass serves both: the spec's next blocks, and as many as fee targets reach (the fee service's entry rates).
    const deep = projectMempoolBlocks(entries, { maxBlockWeight: ctx.params.maxBlockWeight, blocks: PROJECTION_DEPTH, minFeeRate: snapshot.minFeeRate });
    const state = this.state(id);
    state.current = {
      txCount: entries.length,
      bytes: entries.reduce((sum, e) => sum + (e.size ?? e.vsize), 0),
      updatedAt: snapshot.takenAt,
      blocks: deep.slice(0, PROJECTED_BLOCKS),
      minFeeRate: snapshot.minFeeRate,
      entryRates: deep.filter((b) => b.numTxs > 0).map((b) => b.minFeeRatePossible),
    };
    state.computedAtMs = Date.now();
  }

  private state(id: NetworkId): NetworkState {
    let state = this.states.get(id);
    if (!state) {
      state = { current: null, computedAtMs: 0, running: null, timer: null };
      this.states.set(id, state);
    }
    return state;
  }
}
