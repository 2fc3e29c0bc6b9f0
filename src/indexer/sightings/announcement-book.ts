/**
 * Which peers announced which txid, and when it was first seen: the propagation half of confidence. Memory is
 * bounded: at most `maxEntries` txids (the oldest first seen go first), none older than `maxAgeMs`; entries of txs
 * that left our node's mempool (confirmed, evicted) are dropped as the indexer reports it, so in a steady state the
 * book holds about the network's mempool.
 */
import type { TxSighting } from '../../core/index.js';

interface Entry {
  readonly firstSeenMs: number;
  /** Peer ids, in announcement order; a handful per tx. */
  readonly peers: number[];
  /** Our node's mempool holds it (the indexer stored it): no need to fetch it from a peer. */
  inIndex: boolean;
}

export const DEFAULT_MAX_ANNOUNCED = 200_000;
export const DEFAULT_ANNOUNCED_MAX_AGE_MS = 24 * 3600_000;

export class AnnouncementBook {
  /** Insertion order is first-seen order, so the first entries are the oldest. */
  private readonly entries = new Map<string, Entry>();
  /** Peers connected now, with their handshake time. */
  private readonly sessions = new Map<number, number>();

  constructor(
    private readonly maxEntries = DEFAULT_MAX_ANNOUNCED,
    private readonly maxAgeMs = DEFAULT_ANNOUNCED_MAX_AGE_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  peerConnected(peerId: number, atMs: number): void {
    this.sessions.set(peerId, atMs);
  }

  peerDisconnected(peerId: number): void {
    this.sessions.delete(peerId);
  }

  get connectedPeers(): number {
    return this.sessions.size;
  }

  /** Records one peer's announcement; true when the txid is new to the book. */
  announce(txid: string, peerId: number, nowMs: number): boolean {
    const entry = this.entries.get(txid);
    if (entry) {
      if (!entry.peers.includes(peerId)) entry.peers.push(peerId);
      return false;
    }
    this.insert(txid, { firstSeenMs: nowMs, peers: [peerId], inIndex: false });
    return true;
  }

  /** Our node's mempool holds the tx (first sighting if no peer announced it yet). */
  markInIndex(txid: string, nowMs: number): void {
    const entry = this.entries.get(txid);
    if (entry) entry.inIndex = true;
    else this.insert(txid, { firstSeenMs: nowMs, peers: [], inIndex: true });
  }

  isInIndex(txid: string): boolean {
    return this.entries.get(txid)?.inIndex ?? false;
  }

  /** Withdraws everything a peer announced (it was dropped for misbehaving): txids only it announced go. */
  forgetPeer(peerId: number): void {
    for (const [txid, entry] of this.entries) {
      const at = entry.peers.indexOf(peerId);
      if (at < 0) continue;
      entry.peers.splice(at, 1);
      if (entry.peers.length === 0 && !entry.inIndex) this.entries.delete(txid);
    }
  }

  forget(txid: string): void {
    this.entries.delete(txid);
  }

  sighting(txid: string): TxSighting | null {
    const entry = this.entries.get(txid);
    if (!entry) return null;
    let sampled = entry.peers.length;
    for (const [peer, connectedAt] of this.sessions) if (connectedAt <= entry.firstSeenMs && !entry.peers.includes(peer)) sampled++;
    return { firstSeenMs: entry.firstSeenMs, announcedBy: entry.peers.length, sampled };
  }

  /** Drops entries older than the maximum age. */
  prune(nowMs: number): void {
    for (const [txid, entry] of this.entries) {
      if (nowMs - entry.firstSeenMs <= this.maxAgeMs) break;
      this.entries.delete(txid);
    }
  }

  private insert(txid: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(txid, entry);
  }
}
