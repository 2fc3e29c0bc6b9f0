/**
 * Keeps the listener's connections: every configured peer, plus discovered ones up to `targetPeers` in total, at
 * most one discovered peer per /16. Dead and misbehaving peers are replaced (each address backs off on its own,
 * see address-book.ts); the node's address book is asked again when discovered candidates run out and every
 * ten minutes. Implements core's PeerNetwork for the application (src/indexer/sightings).
 */
import type { Logger, PeerAddressSource, PeerNetwork, PeerNetworkEvents, PeerSummary, Transaction } from '../core/index.js';
import { AddressBook, type Candidate } from './address-book.js';
import { PeerConnection, type ConnectionEvents } from './peer-connection.js';
import { DEFAULT_PEER_LIMITS, type PeerLimits } from './peer-limits.js';
import { magicBytes } from './wire/frame.js';

export interface PeerManagerOptions {
  /** The network's message start (chains' p2pMagicFor) and protocol version. */
  readonly magic: string;
  readonly protocolVersion: number;
  readonly defaultPort: number;
  readonly witness: boolean;
  readonly mweb: boolean;
  /** `p2p_peers`: host:port strings. */
  readonly configured: readonly string[];
  /** null: no discovery (`p2p_discover = false`). */
  readonly discovery: PeerAddressSource | null;
  readonly targetPeers: number;
  readonly userAgent: string;
  /** Our best height, sent in `version` (peers use it only for display). */
  readonly startHeight?: () => number;
  readonly events: PeerNetworkEvents;
  readonly logger: Logger;
  /** Log fields naming the network. */
  readonly logFields?: Record<string, unknown>;
  readonly limits?: Partial<PeerLimits>;
  readonly nowMs?: () => number;
  /** How often connections are topped up (default 1 s). */
  readonly fillIntervalMs?: number;
  /** How often the node is asked for addresses even while candidates remain (default 10 min). */
  readonly rediscoverMs?: number;
}

interface Slot {
  readonly connection: PeerConnection;
  readonly candidate: Candidate;
}

export class PeerManager implements PeerNetwork {
  private readonly book: AddressBook;
  private readonly slots = new Map<number, Slot>();
  private readonly limits: PeerLimits;
  private readonly nowMs: () => number;
  private readonly magic: Uint8Array;
  private nextId = 1;
  private timer: NodeJS.Timeout | null = null;
  private discovering = false;
  private lastDiscoveryMs = -Infinity;
  private stopped = true;

  constructor(private readonly options: PeerManagerOptions) {
    this.book = new AddressBook(options.configured, options.defaultPort);
    this.limits = { ...DEFAULT_PEER_LIMITS, ...options.limits };
    this.nowMs = options.nowMs ?? Date.now;
    this.magic = magicBytes(options.magic);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.fill();
    this.timer = setInterval(() => this.fill(), this.options.fillIntervalMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const { connection } of [...this.slots.values()]) connection.close('stopping');
    await Promise.resolve();
  }

  peers(): PeerSummary[] {
    const out: PeerSummary[] = [];
    for (const { connection } of this.slots.values()) {
      const summary = connection.isReady ? connection.summary() : null;
      if (summary) out.push(summary);
    }
    return out;
  }

  /** Connections open or being opened (bounded by configured peers + target). */
  get connectionCount(): number {
    return this.slots.size;
  }

  /** Bytes held by connections towards messages not yet complete. */
  get bufferedBytes(): number {
    let n = 0;
    for (const { connection } of this.slots.values()) n += connection.bufferedBytes;
    return n;
  }

  requestTxs(peerId: number, txids: readonly string[]): boolean {
    return this.slots.get(peerId)?.connection.request(txids) ?? false;
  }

  misbehaved(peerId: number, reason: string): void {
    this.slots.get(peerId)?.connection.close(reason, true);
  }

  /** Opens connections until every configured peer and `targetPeers` in total are connected or connecting. */
  private fill(): void {
    if (this.stopped) return;
    const now = this.nowMs();
    const busy = (c: Candidate): boolean => [...this.slots.values()].some((s) => s.candidate === c);
    for (const candidate of this.book.dueConfigured(now, busy)) this.open(candidate);
    const groups = new Set([...this.slots.values()].filter((s) => !s.candidate.configured).map((s) => s.candidate.group));
    while (this.slots.size < this.options.targetPeers) {
      const candidate = this.book.nextDiscovered(now, busy, groups);
      if (!candidate) break;
      groups.add(candidate.group);
      this.open(candidate);
    }
    const wantMore = this.slots.size < this.options.targetPeers;
    const stale = now - this.lastDiscoveryMs > (this.options.rediscoverMs ?? 600_000);
    const runOut = wantMore && !this.book.hasUsableDiscovered(now) && now - this.lastDiscoveryMs > 30_000;
    if (this.options.discovery && (stale || runOut)) this.discover(now);
  }

  private discover(now: number): void {
    if (this.discovering || !this.options.discovery) return;
    this.discovering = true;
    this.lastDiscoveryMs = now;
    this.options.discovery.candidates().then(
      (addresses) => {
        this.discovering = false;
        const added = this.book.addDiscovered(addresses);
        if (added > 0) this.options.logger.info('p2p: addresses discovered', { ...this.options.logFields, added, known: this.book.discoveredCount });
        this.fill();
      },
      (err: unknown) => {
        this.discovering = false;
        this.options.logger.warn('p2p: peer discovery failed; retrying later', { ...this.options.logFields, error: err instanceof Error ? err.message : String(err) });
      },
    );
  }

  private open(candidate: Candidate): void {
    const connection = new PeerConnection(
      {
        id: this.nextId++, host: candidate.host, port: candidate.port, configured: candidate.configured, magic: this.magic,
        protocolVersion: this.options.protocolVersion, witness: this.options.witness, mweb: this.options.mweb,
        userAgent: this.options.userAgent, startHeight: this.options.startHeight ?? (() => 0), limits: this.limits, nowMs: this.nowMs,
      },
      this.connectionEvents,
    );
    this.slots.set(connection.id, { connection, candidate });
    connection.connect();
  }

  private readonly connectionEvents: ConnectionEvents = {
    ready: (connection) => {
      const slot = this.slots.get(connection.id);
      if (!slot) return;
      this.book.succeeded(slot.candidate);
      const summary = connection.summary()!;
      this.options.logger.info('p2p: peer connected', { ...this.options.logFields, peer: summary.address, agent: summary.userAgent, version: summary.protocolVersion });
      this.options.events.peerConnected(summary);
    },
    closed: (connection, reason, ready, misbehaved) => {
      const slot = this.slots.get(connection.id);
      if (!slot) return;
      this.slots.delete(connection.id);
      const now = this.nowMs();
      if (misbehaved) this.book.misbehaved(slot.candidate, now);
      else if (!ready || reason !== 'stopping') this.book.failed(slot.candidate, now);
      const fields = { ...this.options.logFields, peer: connection.address, reason };
      if (misbehaved) this.options.logger.warn('p2p: peer dropped for misbehaviour', fields);
      else if (ready && reason !== 'stopping') this.options.logger.info('p2p: peer disconnected', fields);
      const summary = ready ? connection.summary() : null;
      if (summary) this.options.events.peerDisconnected(summary, reason, misbehaved);
      // Replace it now rather than at the next tick: a dropped peer's slot should not stay empty.
      if (!this.stopped) setImmediate(() => this.fill());
    },
    announced: (connection, txids) => this.options.events.txAnnounced(connection.id, txids),
    tx: (connection, tx: Transaction) => this.options.events.txReceived(connection.id, tx),
    notFound: (connection, txids) => this.options.events.txNotFound(connection.id, txids),
  };
}
