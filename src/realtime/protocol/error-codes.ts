/**
 * Every code this server sends, in close frames and in `pusher:error` data. The ranges are the
 * Pusher protocol's and carry the client's reconnect policy (pusher-js `getCloseAction`):
 * 4000-4099 never reconnect, 4100-4199 reconnect with backoff, 4200-4299 reconnect at once,
 * 4300-4399 other errors (as close codes pusher-js does not reconnect after them).
 */
export enum PusherCode {
  /** No application with the key in `/app/{key}`. */
  AppNotFound = 4001,
  /** `protocol` is present but not an integer. */
  InvalidVersionFormat = 4006,
  /** `protocol` is an integer this server does not speak. */
  UnsupportedProtocolVersion = 4007,
  /** No `protocol` query parameter. */
  NoProtocolVersion = 4008,
  /** Private, presence and user sign-in need an auth endpoint; this server offers public channels only. */
  Unauthorized = 4009,
  /** Connection limit reached, or the client reads too slowly to keep up (its messages were being dropped). */
  OverCapacity = 4100,
  /** The server is shutting down: reconnect (to another process) at once. */
  ServerRestarting = 4200,
  /** No answer to our `pusher:ping` within the grace period. */
  PongNotReceived = 4201,
  /** Unparseable message, unknown event, or a channel that does not exist here. */
  InvalidMessage = 4300,
  /** Client events (`client-*`, public channels only here) or inbound messages over the rate limit. */
  ClientEventRejected = 4301,
  /** Subscribing to more channels than one connection may hold. */
  SubscriptionLimit = 4302,
  /** An inbound message longer than the per-message limit (ignored; far longer ones close with 1009). */
  MessageTooLarge = 4303,
}
