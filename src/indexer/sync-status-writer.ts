/**
 * The indexer's side of a network's initial-sync status (docs/indexer.md, "Initial sync"). The first pass decides
 * whether this is an initial sync: the index was empty, `--bulk` was asked for, or a stored status says an initial
 * sync was under way (a restart, even after kill -9, resumes it: the status is written before the first block).
 * An index that has a tip and no stored status (every index built before the table existed, or one after downtime)
 * stays queryable: no status is written for it. During an initial sync the status is written after each batch with
 * an ETA from the rate so far, `ready` when the node's tip is reached, and the network's events are not published
 * (`quietWhileSyncing`): the single writer of a network is the one place every process's subscribers get events from.
 */
import type { ChainTip, EventBus, NetworkStore, SyncPhase, SyncStatus } from '../core/index.js';

export type SyncingPhase = Exclude<SyncPhase, 'ready'>;

export interface SyncStatusWriterOptions {
  /** `outpoint index --bulk`: treat this run as an initial sync even though the index has a tip. */
  readonly bulk?: boolean;
  /** Milliseconds; injectable for tests. */
  readonly clockMs?: () => number;
}

export class SyncStatusWriter {
  private state: 'undecided' | 'syncing' | 'ready' = 'undecided';
  private phase: SyncingPhase = 'loading';
  /** Where the current phase started in this process: the ETA's rate is measured from here. */
  private start: { atMs: number; height: number | null } | null = null;
  private readonly clockMs: () => number;

  constructor(
    private readonly store: Pick<NetworkStore, 'getSyncStatus' | 'setSyncStatus'>,
    private readonly options: SyncStatusWriterOptions = {},
  ) {
    this.clockMs = options.clockMs ?? Date.now;
  }

  /** True until the network is known to answer chain queries: its events stay unpublished meanwhile. */
  get syncing(): boolean {
    return this.state !== 'ready';
  }

  /** At the start of every pass, before anything is written or published; only the first call decides and writes. */
  async begin(tip: ChainTip | null): Promise<void> {
    if (this.state !== 'undecided') return;
    const stored = await this.store.getSyncStatus();
    const resumed = stored !== null && stored.phase !== 'ready';
    if (tip !== null && !resumed && this.options.bulk !== true) {
      this.state = 'ready';
      return;
    }
    this.state = 'syncing';
    // The node's height comes with the first batch; a resumed sync keeps the one it stored.
    await this.progress(tip?.height ?? null, resumed ? stored.targetHeight : null, resumed ? (stored.phase as SyncingPhase) : 'loading');
  }

  /** After each batch (or step of a phase). `etaSeconds` overrides the estimate from the rate so far. */
  async progress(height: number | null, targetHeight: number | null, phase: SyncingPhase = this.phase, etaSeconds?: number | null): Promise<void> {
    if (this.state !== 'syncing') return;
    const now = this.clockMs();
    if (phase !== this.phase || this.start === null) {
      this.phase = phase;
      this.start = { atMs: now, height };
    }
    const eta = etaSeconds !== undefined ? etaSeconds : this.estimate(this.start, height, targetHeight, now);
    await this.write({ phase, height, targetHeight, etaSeconds: eta });
  }

  /** At the node's tip: chain queries and events of the network start. */
  async ready(height: number, targetHeight: number): Promise<void> {
    if (this.state !== 'syncing') return;
    await this.write({ phase: 'ready', height, targetHeight, etaSeconds: 0 });
    this.state = 'ready';
  }

  /** Blocks left over blocks per second since the phase started here; null until a block was written in it. */
  private estimate(start: { atMs: number; height: number | null }, height: number | null, targetHeight: number | null, now: number): number | null {
    if (height === null || targetHeight === null) return null;
    // From an empty index, block 0 counts too.
    const done = height - (start.height ?? -1);
    const seconds = (now - start.atMs) / 1000;
    if (done <= 0 || seconds <= 0) return null;
    return Math.round(Math.max(targetHeight - height, 0) / (done / seconds));
  }

  private write(status: Omit<SyncStatus, 'updatedAt'>): Promise<void> {
    return this.store.setSyncStatus({ ...status, updatedAt: Math.floor(this.clockMs() / 1000) });
  }
}

/** The bus a network's indexer publishes on: nothing of the network goes out while its initial sync runs. */
export function quietWhileSyncing(bus: EventBus, writer: { readonly syncing: boolean }): EventBus {
  return {
    publish: (event) => {
      if (!writer.syncing) bus.publish(event);
    },
    subscribe: (handler) => bus.subscribe(handler),
    absorbed: async (maxQueued?: number) => bus.absorbed?.(maxQueued),
  };
}
