/**
 * "Something changed, go and look" signals from a full node: a new best block, or a mempool that may have
 * changed. Two drivers implement it: polling (any node) and ZMQ (bitcoind built with ZMQ). Signals carry no
 * txid lists: the one consumer (the indexer) answers every signal with one `getrawmempool` diffed against its
 * store, so a txid mirror kept here would double that work. Signals may repeat, and one signal may stand for
 * many changes; a driver that may have missed something (reconnect, lost message, periodic safety net) signals.
 */
export interface TipEvent {
  /** The node's best block hash as the driver last saw it (a later signal may carry a newer one). */
  readonly hash: string;
}

export interface NotifierEvents {
  /** The best block changed. Txs it confirmed left the mempool: a `tip` also means "the mempool may have changed". */
  tip: TipEvent;
  /** Txs may have entered or left the mempool (no payload: read the node's mempool to know which). */
  mempool: undefined;
  /** A failed poll or socket error; the notifier keeps running and retries by itself. */
  error: Error;
}

export type NotifierListener<E extends keyof NotifierEvents> = (event: NotifierEvents[E]) => void;

export interface BlockNotifier {
  /** Subscribes; returns the unsubscribe function. Listeners run synchronously and must not throw. */
  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void;
  /** Loads the current tip (and mempool fingerprint) as the baseline (no signals for them), then watches. */
  start(): Promise<void>;
  /** Stops watching; resolves once no poll or handler is running any more. */
  stop(): Promise<void>;
  /** Best block hash as last seen (null before start). */
  readonly tip: string | null;
}
