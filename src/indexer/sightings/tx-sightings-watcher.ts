/**
 * One network's view of the P2P network, between the listener (src/p2p, through core's PeerNetwork) and the index:
 * it records who announced what (AnnouncementBook), fetches announced txs our index does not have (FetchScheduler),
 * finds conflicting spends (ConflictDetector) and answers services through core's TxSightings. It also turns the
 * indexer's own double-spend findings (a replacement in our node's mempool, a block conflicting with it) into
 * `double_spend` events, so those are published with or without peers.
 *
 * Store reads run one after another on a queue (ordering: a tx is judged against what the previous one left);
 * announcements are recorded synchronously, so a flood costs map operations only.
 */
import type {
  DomainEvent, EventBus, Logger, NetworkId, NetworkReader, PeerNetwork, PeerNetworkEvents, PeerOnlyTx, PeerSummary, Transaction, TxConflict,
  TxSighting, TxSightings,
} from '../../core/index.js';
import { AnnouncementBook } from './announcement-book.js';
import { ConflictBook } from './conflict-book.js';
import { ConflictDetector } from './conflict-detector.js';
import { DoubleSpendNotifier } from './double-spend-notifier.js';
import { FetchScheduler } from './fetch-scheduler.js';
import { PeerTxPool } from './peer-tx-pool.js';
import { quietWhileSyncing } from '../sync-status-writer.js';

export interface TxSightingsWatcherOptions {
  readonly network: NetworkId;
  readonly mweb: boolean;
  readonly reader: NetworkReader;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly nowMs?: () => number;
  /**
   * The network's initial sync is under way (NetworkIndexer.isSyncing): announcements are still recorded, but nothing
   * is fetched or checked against the half-built index (its secondary indexes may not exist yet) and no event is
   * published, as the indexer publishes none then. Default: never.
   */
  readonly syncing?: () => boolean;
  readonly fetchDelayMs?: number;
  /** Bounds (defaults in each structure's file); tests make them small. */
  readonly maxAnnounced?: number;
  readonly maxPoolTxs?: number;
}

const TICK_MS = 100;
/** Checks waiting for the index at most; beyond it received txs are dropped (they are asked for again if re-announced). */
const MAX_QUEUED = 10_000;
const PRUNE_EVERY_MS = 60_000;

export class TxSightingsWatcher implements TxSightings, PeerNetworkEvents {
  private readonly announcements: AnnouncementBook;
  private readonly detector: ConflictDetector;
  private readonly notifier: DoubleSpendNotifier;
  private readonly nowMs: () => number;
  private readonly syncing: () => boolean;
  private peers: PeerNetwork | null = null;
  private fetcher: FetchScheduler | null = null;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastPruneMs = 0;
  private lastErrorLogMs = -Infinity;

  constructor(private readonly options: TxSightingsWatcherOptions) {
    this.nowMs = options.nowMs ?? Date.now;
    const syncing = options.syncing ?? (() => false);
    this.syncing = syncing;
    this.announcements = new AnnouncementBook(options.maxAnnounced);
    const quiet = quietWhileSyncing(options.bus, { get syncing() { return syncing(); } });
    this.notifier = new DoubleSpendNotifier(options.network, quiet, (txid) => this.detector.facts(txid), () => Math.floor(this.nowMs() / 1000));
    this.detector = new ConflictDetector(new PeerTxPool(options.maxPoolTxs), new ConflictBook(), options.reader, this.notifier, options.mweb, this.nowMs);
  }

  /** The listener to fetch from (none: only the indexer's own double-spend findings are published). */
  attach(peers: PeerNetwork): void {
    this.peers = peers;
    this.fetcher = new FetchScheduler(peers, this.options.fetchDelayMs);
  }

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.options.bus.subscribe((event) => this.onEvent(event));
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Stops taking events and waits for the checks under way. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.queue;
  }

  /** Sizes of the bounded structures (tests, benchmarks, logs). */
  get stats(): { announced: number; peerOnly: number; conflicts: number; fetching: number; queued: number } {
    return {
      announced: this.announcements.size, peerOnly: this.detector.pool.size, conflicts: this.detector.book.size,
      fetching: this.fetcher?.size ?? 0, queued: this.queued,
    };
  }

  connectedPeers(): number {
    return this.announcements.connectedPeers;
  }

  sighting(txid: string): TxSighting | null {
    return this.announcements.sighting(txid);
  }

  peerTx(txid: string): PeerOnlyTx | null {
    return this.detector.pool.get(txid);
  }

  conflicts(txid: string): readonly TxConflict[] {
    return this.detector.book.conflicts(txid);
  }

  peerConnected(peer: PeerSummary): void {
    this.announcements.peerConnected(peer.id, peer.connectedAtMs);
  }

  peerDisconnected(peer: PeerSummary, _reason: string, misbehaved: boolean): void {
    this.announcements.peerDisconnected(peer.id);
    if (misbehaved) this.announcements.forgetPeer(peer.id);
    this.fetcher?.peerGone(peer.id, this.nowMs());
  }

  txAnnounced(peerId: number, txids: readonly string[]): void {
    const now = this.nowMs();
    const fetching = this.fetcher !== null && !this.syncing();
    for (const txid of txids) {
      this.announcements.announce(txid, peerId, now);
      if (fetching && !this.announcements.isInIndex(txid) && !this.detector.pool.has(txid)) this.fetcher!.announced(txid, peerId, now);
    }
  }

  txReceived(_peerId: number, tx: Transaction): void {
    this.fetcher?.done(tx.txid);
    // Requests are bounded, so this only fills when the index answers slower than peers deliver: shed, do not hoard.
    if (this.queued >= MAX_QUEUED || this.syncing()) return;
    const firstSeenMs = this.announcements.sighting(tx.txid)?.firstSeenMs ?? this.nowMs();
    this.enqueue(() => this.detector.peerTx(tx, firstSeenMs).then(() => undefined));
  }

  txNotFound(peerId: number, txids: readonly string[]): void {
    this.fetcher?.failed(peerId, txids, this.nowMs());
  }

  private onEvent(event: DomainEvent): void {
    if (!('network' in event) || event.network !== this.options.network) return;
    switch (event.kind) {
      case 'tx_accepted': {
        if (this.peers) this.announcements.markInIndex(event.tx.txid, this.nowMs());
        this.fetcher?.done(event.tx.txid);
        const fee = event.inputValue === null ? null : event.inputValue - event.tx.outputs.reduce((s, o) => s + o.value, 0n);
        if (this.detector.pool.size > 0) this.enqueue(() => this.detector.indexTx(event.tx, event.prevouts, fee));
        return;
      }
      case 'tx_removed':
        if (event.reason === 'confirmed' || event.reason === 'evicted') this.announcements.forget(event.txid);
        else this.enqueue(() => this.announceRemoval(event.txid, event.reason === 'replaced' ? 'replaced' : 'conflicted'));
        return;
      case 'block_connected':
        if (this.detector.pool.size > 0) this.enqueue(() => this.detector.afterBlock());
        return;
      default:
        return;
    }
  }

  /** Our node replaced the tx, or a block conflicted it: name what took its coins. */
  private async announceRemoval(txid: string, reason: 'replaced' | 'conflicted'): Promise<void> {
    const facts = await this.detector.facts(txid);
    if (!facts) return;
    const winners = new Set<string>();
    for (const input of facts.tx.inputs) {
      const spentBy = (await this.options.reader.getOutputs(input.prevTxid))?.find((o) => o.vout === input.prevVout)?.spentBy;
      if (spentBy && spentBy.txid !== txid) winners.add(spentBy.txid);
    }
    await this.notifier.notify({ txid, conflictingTxids: [...winners], reason, seenIn: reason === 'replaced' ? 'mempool' : 'block' });
  }

  private tick(): void {
    const now = this.nowMs();
    this.fetcher?.tick(now, (txid) => this.announcements.isInIndex(txid) || this.detector.pool.has(txid));
    if (now - this.lastPruneMs < PRUNE_EVERY_MS) return;
    this.lastPruneMs = now;
    this.announcements.prune(now);
    this.detector.pool.prune(now);
    this.detector.book.prune(now);
  }

  private enqueue(job: () => Promise<void>): void {
    this.queued++;
    this.queue = this.queue.then(job).catch((err: unknown) => {
      // The index may be unreachable or still syncing: skip this check, say so at most once a minute.
      const now = this.nowMs();
      if (now - this.lastErrorLogMs < 60_000) return;
      this.lastErrorLogMs = now;
      this.options.logger.warn('p2p: a sighting check failed', { network: this.options.network, error: err instanceof Error ? err.message : String(err) });
    }).finally(() => {
      this.queued--;
    });
  }
}
