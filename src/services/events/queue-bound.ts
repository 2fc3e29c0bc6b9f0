/**
 * The bound on a queue behind the indexer, and the publishers waiting for it (core EventBus.absorbed): the event log's
 * (logged-event-bus.ts) and webhook matching's (webhook-matcher.ts). Each queued event keeps its tx (and through it
 * the block's) in memory: a 200-block catch-up queued ~1M events and grew the heap by ~4 KB per tx (~1.1 KB per event)
 * to 1.9 GB before the log caught up, minutes after the indexer had finished (docs/benchmarks.md). 50,000 (~60 MB) is a
 * few blocks' events: a block at the tip (a mainnet block makes ~12,000) never waits for the one before it, while a
 * catch-up, which makes them faster than they are taken up, is held at the bound.
 */
export const MAX_QUEUED_EVENTS = 50_000;

export class QueueBound {
  private waiters: { readonly bound: number; readonly resolve: () => void }[] = [];

  /** Resolves once the queue, `length` long now, is back within the bound, or `bound` if tighter (at once when it is). */
  async within(length: number, bound = MAX_QUEUED_EVENTS): Promise<void> {
    const limit = Math.min(bound, MAX_QUEUED_EVENTS);
    if (length > limit) await new Promise<void>((resolve) => this.waiters.push({ bound: limit, resolve }));
  }

  /** Called as the queue shrinks: lets each waiter go once it is within its bound. */
  shrunkTo(length: number): void {
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = waiting.filter((w) => w.bound < length);
    for (const w of waiting) if (w.bound >= length) w.resolve();
  }
}
