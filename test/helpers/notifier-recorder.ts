import type { BlockNotifier, MempoolEvent, NotifierEvents, TipEvent } from '../../src/node/block-notifier.js';
import { waitFor } from './regtest-node.js';

interface Recorded<E> {
  readonly at: number;
  readonly event: E;
}

/** Records a notifier's events with arrival times, for "X is reported within N ms" assertions. */
export class NotifierRecorder {
  readonly tips: Array<Recorded<TipEvent>> = [];
  readonly mempool: Array<Recorded<MempoolEvent>> = [];
  readonly errors: Array<Recorded<NotifierEvents['error']>> = [];

  constructor(notifier: BlockNotifier) {
    notifier.on('tip', (event) => this.tips.push({ at: Date.now(), event }));
    notifier.on('mempool', (event) => this.mempool.push({ at: Date.now(), event }));
    notifier.on('error', (event) => this.errors.push({ at: Date.now(), event }));
  }

  /** Arrival time of the tip event for `hash`. */
  async tipReported(hash: string, timeoutMs = 5_000): Promise<number> {
    await waitFor(() => this.tips.some((r) => r.event.hash === hash), timeoutMs, `tip ${hash}`, 2);
    return this.tips.find((r) => r.event.hash === hash)!.at;
  }

  async added(txid: string, timeoutMs = 5_000): Promise<number> {
    await waitFor(() => this.mempool.some((r) => r.event.added.includes(txid)), timeoutMs, `mempool add ${txid}`, 2);
    return this.mempool.find((r) => r.event.added.includes(txid))!.at;
  }

  async removed(txid: string, timeoutMs = 5_000): Promise<number> {
    await waitFor(() => this.mempool.some((r) => r.event.removed.includes(txid)), timeoutMs, `mempool removal ${txid}`, 2);
    return this.mempool.find((r) => r.event.removed.includes(txid))!.at;
  }
}
