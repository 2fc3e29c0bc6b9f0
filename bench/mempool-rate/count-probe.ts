/**
 * The service's side of "has it": its stored mempool count (get_info `unconfirmed_txs`, read from the store) polled
 * back to back every `everyMs`. The mempool only grows during a run, so the n-th tx the node had is in the index once
 * the count reaches n; the time taken is the reply's arrival, so a lag read here is late by up to one probe interval.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { mempoolCount } from '../scale/service-probe.js';

const nowMs = (): number => performance.timeOrigin + performance.now();

export class CountProbe {
  /** Replies in arrival order: the highest count seen so far, and when (ms since the epoch). */
  readonly samples: { at: number; count: number }[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(baseUrl: string, network: string, everyMs: number) {
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const count = await mempoolCount(baseUrl, network);
        if (count !== null) this.samples.push({ at: nowMs(), count: Math.max(count, this.latest) });
        await delay(Math.max(0, everyMs - (performance.now() - started)));
      }
    })();
  }

  get latest(): number {
    return this.samples.at(-1)?.count ?? 0;
  }

  /** When the count first reached `n` (ms since the epoch), or null if it never did. */
  reachedAt(n: number): number | null {
    let lo = 0;
    let hi = this.samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.samples[mid]!.count >= n) hi = mid;
      else lo = mid + 1;
    }
    return this.samples[lo]?.at ?? null;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
