/**
 * Limits every connection lives by. Each one bounds memory or time against a peer that is broken or hostile; the
 * figures leave honest peers far inside them (docs/p2p.md has the reasoning).
 */
export interface PeerLimits {
  readonly connectTimeoutMs: number;
  /** From TCP connect to verack. */
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  /** A ping unanswered this long drops the peer. */
  readonly pongTimeoutMs: number;
  /** Sustained inventory entries per second, and the burst allowed above it. */
  readonly invPerSecond: number;
  readonly invBurst: number;
  /** Sustained received bytes per second, and the burst allowed above it. */
  readonly bytesPerSecond: number;
  readonly bytesBurst: number;
  /** Transactions asked for and not yet answered, per peer (Core allows 100 in flight; we ask more at once). */
  readonly maxInFlight: number;
  /** An unanswered getdata entry is given up after this long (Core: 60 s). */
  readonly requestTimeoutMs: number;
  /** Bytes queued for sending to a peer that does not read them. */
  readonly maxSendBacklog: number;
}

export const DEFAULT_PEER_LIMITS: PeerLimits = Object.freeze({
  connectTimeoutMs: 5_000,
  handshakeTimeoutMs: 10_000,
  pingIntervalMs: 60_000,
  pongTimeoutMs: 90_000,
  // Core sends at most 35 tx announcements per trickle (7/s) to ordinary peers and everything at once to whitelisted
  // ones; 5,000/s sustained (a burst of one full inv, 50,000) is far beyond any honest node and still cheap for us.
  invPerSecond: 5_000,
  invBurst: 50_000,
  // A busy network relays well under 1 MB/s of transactions; 4 MB/s with a 12 MB burst leaves room for three
  // maximum-size messages back to back.
  bytesPerSecond: 4_000_000,
  bytesBurst: 12_000_000,
  maxInFlight: 2_000,
  requestTimeoutMs: 30_000,
  maxSendBacklog: 1_000_000,
});
