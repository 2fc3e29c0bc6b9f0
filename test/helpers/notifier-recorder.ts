import type { BlockNotifier, MempoolAnnouncement, NotifierEvents, TipEvent } from '../../src/node/notifiers/block-notifier.js';
import { waitFor } from './regtest-node.js';

interface Recorded<E> {
  readonly at: number;
  readonly event: E;
}

/** Records a notifier's signals with arrival times, for "X is signalled within N ms" and "nothing is signalled" assertions. */
export class NotifierRecorder {
  readonly tips: Array<Recorded<TipEvent>> = [];
  /** Arrival times of the `mempool` signals. */
  readonly mempool: number[] = [];
  readonly errors: Array<Recorded<NotifierEvents['error']>> = [];
  /** Txs announced as entering or leaving the mempool (ZMQ `sequence`), in order. */
  readonly announcements: Array<Recorded<MempoolAnnouncement>> = [];

  constructor(notifier: BlockNotifier) {
    notifier.on('tip', (event) => this.tips.push({ at: Date.now(), event }));
    notifier.on('mempool', () => this.mempool.push(Date.now()));
    notifier.on('announce', (event) => this.announcements.push({ at: Date.now(), event }));
    notifier.on('error', (event) => this.errors.push({ at: Date.now(), event }));
  }

  /** Arrival time of the tip event for `hash`. */
  async tipReported(hash: string, timeoutMs = 5_000): Promise<number> {
    await waitFor(() => this.tips.some((r) => r.event.hash === hash), timeoutMs, `tip ${hash}`, 2);
    return this.tips.find((r) => r.event.hash === hash)!.at;
  }

  /** Arrival time of the first `mempool` signal at or after `since` (a Date.now() taken before the change). */
  async mempoolSignalled(since: number, timeoutMs = 5_000): Promise<number> {
    await waitFor(() => this.mempool.some((at) => at >= since), timeoutMs, `a mempool signal after ${new Date(since).toISOString()}`, 2);
    return this.mempool.find((at) => at >= since)!;
  }

  /** Arrival time of the announcement that `txid` entered (or, `entered` false, left) the mempool. */
  async announced(txid: string, entered = true, timeoutMs = 5_000): Promise<number> {
    const find = (): Recorded<MempoolAnnouncement> | undefined => this.announcements.find((r) => r.event.txid === txid && r.event.entered === entered);
    await waitFor(() => find() !== undefined, timeoutMs, `${txid} announced as ${entered ? 'entering' : 'leaving'}`, 2);
    return find()!.at;
  }

  /** Signals of each kind that arrived at or after `since`. */
  since(since: number): { tips: number; mempool: number } {
    return { tips: this.tips.filter((r) => r.at >= since).length, mempool: this.mempool.filter((at) => at >= since).length };
  }

  /** Announcements that arrived at or after `since`. */
  announcedSince(since: number): number {
    return this.announcements.filter((r) => r.at >= since).length;
  }

  /** Waits until no signal has arrived for `quietMs` (what an earlier change caused is over); returns that moment. */
  async settled(quietMs: number, timeoutMs = 10_000): Promise<number> {
    const last = (): number => Math.max(0, this.tips.at(-1)?.at ?? 0, this.mempool.at(-1) ?? 0, this.announcements.at(-1)?.at ?? 0);
    await waitFor(() => Date.now() - last() >= quietMs, timeoutMs, `${quietMs} ms without signals`, 10);
    return Date.now();
  }
}
