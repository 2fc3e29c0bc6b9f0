/**
 * Signals from a full node: a new best block, a mempool that may have changed ("go and look": the consumer diffs the
 * node's whole txid list against its store), and, where the node says so (ZMQ `sequence`), each tx that entered or
 * left its mempool, in the node's order. Two drivers implement it: polling (any node) and ZMQ (bitcoind built with
 * ZMQ). Signals may repeat, and one signal may stand for many changes; a driver that may have missed something
 * (reconnect, lost message, periodic safety net) sends `mempool`, which also tells the consumer that announcements
 * may have been lost.
 */
export interface TipEvent {
  /** The node's best block hash as the driver last saw it (a later signal may carry a newer one). */
  readonly hash: string;
}

/** A tx entered ('A') or left ('R') the node's mempool (not: left it in a block; the new tip says that). */
export interface MempoolAnnouncement {
  readonly txid: string;
  readonly entered: boolean;
}

export interface NotifierEvents {
  /** The best block changed. Txs it confirmed left the mempool: a `tip` also means "the mempool may have changed". */
  tip: TipEvent;
  /** Txs may have entered or left the mempool (no payload: read the node's mempool to know which). */
  mempool: undefined;
  /** One tx entered or left, as the node announced it (ZMQ `sequence` only), in the node's order. */
  announce: MempoolAnnouncement;
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
