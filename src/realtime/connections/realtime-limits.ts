/** Per-server and per-connection bounds; every one is a guard against a client costing unbounded memory or CPU. */
export interface RealtimeLimits {
  /** Open websockets per process; more are closed with 4100 (pusher-js retries with backoff). */
  readonly maxConnections: number;
  /** Channels one connection may hold at once. */
  readonly maxSubscriptionsPerConnection: number;
  /** Longest inbound message answered; longer ones get `pusher:error` 4303. Four times this closes with 1009. */
  readonly maxMessageBytes: number;
  /** Sustained inbound messages per second per connection (token bucket refill). */
  readonly messagesPerSecond: number;
  /** Bucket size: pusher-js re-subscribes to every channel at once after a reconnect, so it covers maxSubscriptions. */
  readonly messageBurst: number;
  /** Sent to clients in `connection_established`; we ping a client that has said nothing for this long. Whole seconds. */
  readonly activityTimeoutSec: number;
  /** How long a pinged client has to answer before we close with 4201. */
  readonly pongTimeoutMs: number;
  /** Bytes queued in one socket's send buffer beyond which its messages are dropped and it is closed with 4100. */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_REALTIME_LIMITS: RealtimeLimits = Object.freeze({
  maxConnections: 50_000,
  maxSubscriptionsPerConnection: 100,
  // Pusher's own message size limit.
  maxMessageBytes: 10 * 1024,
  messagesPerSecond: 20,
  messageBurst: 200,
  // Pusher's recommended values.
  activityTimeoutSec: 120,
  pongTimeoutMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
});

export function resolveLimits(overrides: Partial<RealtimeLimits> = {}): RealtimeLimits {
  const limits = { ...DEFAULT_REALTIME_LIMITS, ...overrides };
  if (!Number.isInteger(limits.activityTimeoutSec) || limits.activityTimeoutSec < 1) {
    // pusher-js rejects a handshake whose activity_timeout is 0, and the protocol sends whole seconds.
    throw new RangeError('activityTimeoutSec must be a whole number of seconds, at least 1');
  }
  for (const [name, value] of Object.entries(limits)) {
    if (!(typeof value === 'number' && value > 0)) throw new RangeError(`realtime limit ${name} must be positive`);
  }
  return Object.freeze(limits);
}
