/**
 * The P2P listener as application code sees it (src/p2p implements it): peers that announce transactions, and the
 * requests we may send them. The listener validates nothing beyond framing and parsing; what an announcement or a
 * transaction means (propagation, double spends) is decided by the application (src/indexer/sightings).
 */
import type { Transaction } from '../domain/chain-types.js';

export interface PeerSummary {
  /** Unique per connection for the life of the process (a reconnect gets a new id). */
  readonly id: number;
  /** host:port as connected to. */
  readonly address: string;
  /** Listed in `p2p_peers` (else discovered from the node). */
  readonly configured: boolean;
  readonly userAgent: string;
  readonly protocolVersion: number;
  /** UNIX milliseconds when the handshake completed. */
  readonly connectedAtMs: number;
  /** The peer's BIP133 feefilter (base units per 1000 bytes): it holds no tx paying less. 0 until it sends one. */
  readonly feeFilter: bigint;
}

/** What the listener reports; handlers run synchronously on the listener's event loop turn, so they must be quick. */
export interface PeerNetworkEvents {
  peerConnected(peer: PeerSummary): void;
  /** `misbehaved`: dropped for breaking the protocol (its announcements are worth nothing). */
  peerDisconnected(peer: PeerSummary, reason: string, misbehaved: boolean): void;
  /** Transaction ids (display hex) the peer announced in one inv message. */
  txAnnounced(peerId: number, txids: readonly string[]): void;
  /** A transaction we asked for, parsed (a peer sending one our parser rejects is dropped before this). */
  txReceived(peerId: number, tx: Transaction): void;
  /** The peer no longer has these (a `notfound` answer to our getdata). */
  txNotFound(peerId: number, txids: readonly string[]): void;
}

export interface PeerNetwork {
  start(): void;
  stop(): Promise<void>;
  /** Asks one peer for transactions it announced (getdata); false when the peer is gone or has too many in flight. */
  requestTxs(peerId: number, txids: readonly string[]): boolean;
  /** The application found the peer lying (e.g. a tx that does not parse): drop it. */
  misbehaved(peerId: number, reason: string): void;
  /** Peers with a completed handshake. */
  peers(): readonly PeerSummary[];
}

/** Where discovered peers come from: the node's address book (getnodeaddresses, else its peers via getpeerinfo). */
export interface PeerAddressSource {
  /** host:port candidates (IPv4 `a.b.c.d:port`, IPv6 `[…]:port`), best first; an empty list when the node has none. */
  candidates(): Promise<string[]>;
}
