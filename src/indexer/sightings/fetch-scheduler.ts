/**
 * Decides which announced transactions to fetch (getdata) and from whom. A txid is asked for `delayMs` after its
 * first announcement unless our index has it by then (our node usually receives it within that time, and then there
 * is nothing to learn from the peer's copy); it is asked from one announcer at a time, and from the next one when
 * the first answers notfound, times out or disconnects. Bounded: at most `maxPending` txids wait or fly.
 */
import type { PeerNetwork } from '../../core/index.js';

interface Pending {
  dueMs: number;
  /** Announcers in order; `next` is the one to ask next. */
  readonly peers: number[];
  next: number;
  /** The peer asked, while a request is in flight. */
  askedPeer: number | null;
}

export const DEFAULT_FETCH_DELAY_MS = 500;
export const DEFAULT_MAX_PENDING = 50_000;

export class FetchScheduler {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly network: PeerNetwork,
    private readonly delayMs = DEFAULT_FETCH_DELAY_MS,
    private readonly maxPending = DEFAULT_MAX_PENDING,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** A peer announced a txid we may want. */
  announced(txid: string, peerId: number, nowMs: number): void {
    const entry = this.pending.get(txid);
    if (entry) {
      if (!entry.peers.includes(peerId)) entry.peers.push(peerId);
      return;
    }
    // Full: new announcements wait until older ones resolve (a flood cannot grow this map).
    if (this.pending.size >= this.maxPending) return;
    this.pending.set(txid, { dueMs: nowMs + this.delayMs, peers: [peerId], next: 0, askedPeer: null });
  }

  /** The tx arrived, or is no longer wanted. */
  done(txid: string): void {
    this.pending.delete(txid);
  }

  /** A peer did not deliver these: ask the next announcer now. */
  failed(peerId: number, txids: readonly string[], nowMs: number): void {
    for (const txid of txids) {
      const entry = this.pending.get(txid);
      if (entry?.askedPeer !== peerId) continue;
      entry.askedPeer = null;
      entry.dueMs = nowMs;
    }
  }

  /** Requests in flight to a peer that left are retried with other announcers. */
  peerGone(peerId: number, nowMs: number): void {
    for (const entry of this.pending.values()) {
      if (entry.askedPeer === peerId) {
        entry.askedPeer = null;
        entry.dueMs = nowMs;
      }
    }
  }

  /** Sends the getdata requests that are due; `unwanted` says which txids need no fetching any more. */
  tick(nowMs: number, unwanted: (txid: string) => boolean): void {
    const byPeer = new Map<number, string[]>();
    for (const [txid, entry] of this.pending) {
      if (entry.askedPeer !== null || entry.dueMs > nowMs) continue;
      if (unwanted(txid) || entry.next >= entry.peers.length) {
        this.pending.delete(txid);
        continue;
      }
      const peer = entry.peers[entry.next++]!;
      entry.askedPeer = peer;
      let list = byPeer.get(peer);
      if (!list) byPeer.set(peer, (list = []));
      list.push(txid);
    }
    for (const [peer, txids] of byPeer) {
      if (this.network.requestTxs(peer, txids)) continue;
      // The peer is gone or busy: these go to their next announcer on the next tick.
      for (const txid of txids) {
        const entry = this.pending.get(txid);
        if (entry) entry.askedPeer = null;
      }
    }
  }
}
