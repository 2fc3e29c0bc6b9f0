/** What one client may hold or ask of the Electrum server (`[electrum]` in the configuration; docs/electrum.md, "Limits"). */
export interface ElectrumLimits {
  /** Connections open at once from one address, over every transport of a network (0 = no limit). */
  readonly maxConnectionsPerIp: number;
  /** Connections open at once per network. */
  readonly maxConnections: number;
  readonly maxSubscriptionsPerConnection: number;
  /** Scripthash subscriptions per network and process, all connections together. */
  readonly maxSubscriptions: number;
  /** A request line (or WebSocket message) longer than this closes its connection. */
  readonly maxRequestBytes: number;
  /** Per connection; past it requests wait their turn (0 = no limit). */
  readonly requestsPerSecond: number;
  /** A connection that sent nothing for this long is closed (the protocol's "roughly 10 minutes"). */
  readonly idleTimeoutMs: number;
  /** A client that does not read its answers: past this many unread bytes its connection is closed. */
  readonly maxSendBufferBytes: number;
  /** Memory for kept answers (answer-cache.ts), per network and process; 0 or absent: none kept. */
  readonly answerCacheBytes?: number;
}

/** Requests one connection may have waiting (past it, new ones are refused with code 3 until it catches up). */
export const MAX_QUEUED_REQUESTS = 10_000;
/** Requests one connection has in progress at once (reads run in order; node calls overlap). */
export const MAX_IN_FLIGHT = 16;
/** Unread answers past which a connection stops being read (resumed once its client reads). */
export const PAUSE_READING_BYTES = 4 * 2 ** 20;
