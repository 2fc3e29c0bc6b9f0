/**
 * Change notifications from a full node: a new best block, and transactions entering or
 * leaving the mempool. Two drivers implement it: polling (any node) and ZMQ (bitcoind built
 * with ZMQ). Notifications are hints to sync, not a ledger: after a reconnect or a dropped
 * message a driver resynchronises and reports the net difference, so consumers must treat
 * every event as "go and look", and read the chain itself through RPC.
 */
export interface TipEvent {
  /** The node's best block hash at the time of the event. */
  readonly hash: string;
}

export interface MempoolEvent {
  /** Txids that entered the mempool since the last event. */
  readonly added: readonly string[];
  /** Txids that left it (confirmed, replaced, evicted, expired, conflicted). */
  readonly removed: readonly string[];
}

export interface NotifierEvents {
  tip: TipEvent;
  mempool: MempoolEvent;
  /** A failed poll or socket error; the notifier keeps running and retries by itself. */
  error: Error;
}

export type NotifierListener<E extends keyof NotifierEvents> = (event: NotifierEvents[E]) => void;

export interface BlockNotifier {
  /** Subscribes; returns the unsubscribe function. Listeners run synchronously and must not throw. */
  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void;
  /** Loads the current tip and mempool as the baseline (no events for them), then watches. */
  start(): Promise<void>;
  /** Stops watching; resolves once no poll or handler is running any more. */
  stop(): Promise<void>;
  /** Best block hash as last seen (null before start). */
  readonly tip: string | null;
  /** Mempool txids as last seen. */
  readonly mempool: ReadonlySet<string>;
}
