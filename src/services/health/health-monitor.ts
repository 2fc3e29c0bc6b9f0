/**
 * Background checks behind /ready and the per-network metrics: every `intervalMs` each network's node is asked for
 * its block count, and the store for the index tip, mempool size and sync status. Readers (the HTTP routes, the
 * metrics scrape) only read the kept answers, so a hung node or database never makes /ready or /metrics wait; a
 * probe unanswered after `timeoutMs` counts as failed (a hung node is noticed within interval + timeout).
 *
 * Every API and indexer process runs its own monitor: an API-only replica has no indexer to ask, and a load
 * balancer must learn what this process can answer.
 */
import type { ChainSource } from '../../core/sources/chain-source.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { effectiveSyncStatus, type SyncStatus } from '../../core/domain/sync-status.js';
import { DIRECT_READS, type ReadReplicas, type ReplicaState } from '../../core/store/read-replicas.js';
import { PolledValue } from './polled-value.js';
import { judgeNetwork, type IndexSnapshot, type NetworkHealth, type NetworkReadiness, type ReadinessPolicy } from './readiness.js';
import { SyncRate } from './sync-rate.js';

export interface NetworkProbes {
  readonly id: NetworkId;
  /** The node, through a client of its own with a short timeout (a hung node must not hold the API's sockets). */
  readonly node: Pick<ChainSource, 'getBlockCount'>;
  readonly index: Pick<NetworkReader, 'getTip' | 'getBlockHeaders' | 'getMempoolInfo'>;
  /** The stored initial-sync status (null: none stored, counts as ready when the index has a tip). */
  readonly syncStatus: () => Promise<SyncStatus | null>;
}

export interface HealthMonitorOptions extends ReadinessPolicy {
  /** Time between two checks of each dependency (default 5000 ms). */
  readonly intervalMs?: number;
  /** A probe unanswered this long counts as failed (default 10000 ms). */
  readonly timeoutMs?: number;
  /** ms since the epoch (tests). */
  readonly now?: () => number;
  /** Readiness changes are logged here (a network turning unready says why, once). */
  readonly logger?: Logger;
  /**
   * The store's read replicas: each network's index check reads in one read scope, as an API request does (so /ready
   * says what requests would read, a replica while the primary is down), and /ready and the metrics list them.
   */
  readonly replicas?: ReadReplicas | null;
}

export class HealthMonitor {
  readonly store: PolledValue<unknown>;
  private readonly networks: Map<NetworkId, { probes: NetworkProbes; node: PolledValue<number>; index: PolledValue<IndexSnapshot>; rate: SyncRate }>;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  /** Last logged verdict per network ('ready' or the reason), and of the store. */
  private readonly logged = new Map<string, string>();
  private running: Promise<void> | null = null;

  constructor(
    storePing: () => Promise<unknown>,
    probes: readonly NetworkProbes[],
    private readonly options: HealthMonitorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? 5_000;
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.store = new PolledValue(storePing, timeoutMs, this.now);
    this.networks = new Map(
      probes.map((p) => {
        const rate = new SyncRate(this.now);
        let tipCache: { hash: string; time: number } | null = null;
        const scope = options.replicas?.scope ?? DIRECT_READS;
        const index = new PolledValue<IndexSnapshot>(() => scope.run(async () => {
          const [tip, mempool, stored] = await Promise.all([p.index.getTip(), p.index.getMempoolInfo(), p.syncStatus()]);
          // No status and no blocks: an initial sync whose first status is not written yet (as the API's gate sees it).
          const sync = effectiveSyncStatus(stored, tip !== null, Math.floor(this.now() / 1000));
          // The tip block's time is read once per new tip (its row alone).
          if (tip && tipCache?.hash !== tip.hash) {
            const [block] = sync === null || sync.phase === 'ready' ? await p.index.getBlockHeaders(tip.height, tip.height) : [];
            tipCache = block ? { hash: tip.hash, time: block.time } : null;
          }
          // During an initial sync the status may run ahead of the tip marker (blocks loaded before the indexes exist).
          const progress = Math.max(tip?.height ?? -1, sync?.phase !== 'ready' ? (sync?.height ?? -1) : -1);
          if (progress >= 0) rate.add(progress);
          return { height: tip?.height ?? null, hash: tip?.hash ?? null, tipTime: tip ? (tipCache?.time ?? null) : null, mempool, sync };
        }), timeoutMs, this.now);
        return [p.id, { probes: p, node: new PolledValue(() => p.node.getBlockCount(), timeoutMs, this.now), index, rate }];
      }),
    );
  }

  get policy(): ReadinessPolicy {
    return this.options;
  }

  /** Checks at once, then every intervalMs. */
  start(): void {
    if (this.timer) return;
    this.running = this.checkAll();
    this.timer = setInterval(() => {
      this.running = this.checkAll();
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A probe still waiting on a hung dependency is not waited for: its client's own timeout ends it.
    await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, 100).unref())]);
  }

  /** One round of checks; settles when every probe has (tests await it). */
  async checkAll(): Promise<void> {
    await Promise.all([this.store.refresh(), ...[...this.networks.values()].flatMap((n) => [n.node.refresh(), n.index.refresh()])]);
    this.logChanges();
  }

  private logChanges(): void {
    const logger = this.options.logger;
    if (!logger) return;
    const storeVerdict = this.store.error === null ? 'up' : 'down';
    if (this.logged.get('store') !== storeVerdict && !this.store.unchecked) {
      if (storeVerdict === 'down') logger.warn('health: store not answering', { error: this.store.error });
      else if (this.logged.has('store')) logger.info('health: store answering again');
      this.logged.set('store', storeVerdict);
    }
    for (const r of this.all()) {
      const verdict = r.reason ?? 'ready';
      if (verdict === 'starting' || this.logged.get(r.network) === verdict) continue;
      if (r.ready) logger.info('health: network ready', { network: r.network, indexHeight: r.indexHeight, nodeHeight: r.nodeHeight });
      else logger.warn('health: network not ready', { network: r.network, reason: r.reason, detail: r.detail });
      this.logged.set(r.network, verdict);
    }
  }

  /** The store's read replicas as their last check saw them (none without `[store] read_urls`). */
  replicas(): ReplicaState[] {
    return this.options.replicas?.states() ?? [];
  }

  ids(): NetworkId[] {
    return [...this.networks.keys()];
  }

  health(id: NetworkId): NetworkHealth | null {
    const n = this.networks.get(id);
    return n ? { id, node: n.node, index: n.index, blocksPerSecond: n.rate.perSecond() } : null;
  }

  readiness(id: NetworkId): NetworkReadiness | null {
    const health = this.health(id);
    return health ? judgeNetwork(health, this.options, this.now()) : null;
  }

  /** Every network's readiness, in configuration order. */
  all(): NetworkReadiness[] {
    return this.ids().map((id) => this.readiness(id)!);
  }
}
