import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DomainEvent, EventBus } from '../../core/domain/events.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { EventLogStore } from '../../core/store/event-log-store.js';
import type { EventLogRenderer, RenderedEvent } from './event-log-entries.js';
import { QueueBound } from './queue-bound.js';

/**
 * Events logged per store transaction. A batch runs synchronously on SQLite and holds the event loop while it does: the
 * 20,000-tx mempool that a service finds at start (or after a node outage) logged in one transaction took 14.6 s, when
 * no request was answered and pusher-js clients could not connect (docs/benchmarks.md, "Mempool at mainnet rates").
 * With checkpoints off the event loop an event costs ~13 µs to log on a quiet machine, but several times that on a
 * loaded one: appends of 1,000 held the loop 200-350 ms in the real-node bench, and balance reads waited behind them.
 * 250 keep a write to tens of milliseconds; a commit without a checkpoint costs little, so more writes cost little.
 */
export const EVENTS_PER_APPEND = 250;

interface Pending {
  readonly event: DomainEvent;
  readonly rendered: RenderedEvent | null;
}

/**
 * The bus the writer process publishes on (docs/realtime.md, Catch-up): each event with channel events is logged in
 * the store, which gives it its `event_id`, and only then goes out on the real bus with the id. Logging first means a
 * client that saw event n live can always read everything up to n from the feed; a reconnecting client either gets
 * an event live or finds it in the feed, never neither.
 *
 * Events are batched per turn of the event loop (the indexer publishes a block's events in one loop): one store
 * transaction per network per batch of at most EVENTS_PER_APPEND, the event loop turning between them. Order is kept
 * for every event, logged or not (a `tx_removed` never overtakes the `tx_accepted` before it). A failed log write
 * publishes the events without ids (realtime must not stop with the database) and is logged once per outage.
 */
export class LoggedEventBus implements EventBus {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private failing = false;
  /** Publishers waiting in absorbed() for the queue to come down to its bound. */
  private readonly bound = new QueueBound();

  constructor(
    private readonly inner: EventBus,
    private readonly log: EventLogStore,
    private readonly render: EventLogRenderer,
    private readonly logger: Logger,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  publish(event: DomainEvent): void {
    const rendered = this.render(event);
    if (rendered === null && this.flushing === null) {
      this.inner.publish(event);
      return;
    }
    this.queue.push({ event, rendered });
    this.flushing ??= new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => this.flush());
  }

  subscribe(handler: (event: DomainEvent) => void): () => void {
    return this.inner.subscribe(handler);
  }

  /** Resolves once at most MAX_QUEUED_EVENTS wait to be logged (a failed write counts as done: it publishes without ids). */
  async absorbed(maxQueued?: number): Promise<void> {
    await this.bound.within(this.queue.length, maxQueued);
    await this.inner.absorbed?.(maxQueued);
  }

  /** Resolves once everything published so far has gone out (shutdown). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.length <= EVENTS_PER_APPEND ? this.queue : this.queue.slice(0, EVENTS_PER_APPEND);
      this.queue = batch === this.queue ? [] : this.queue.slice(EVENTS_PER_APPEND);
      const ids = await this.append(batch);
      batch.forEach(({ event }, i) => {
        const eventId = ids[i];
        this.inner.publish(eventId === undefined ? event : ({ ...event, eventId } as DomainEvent));
      });
      this.bound.shrunkTo(this.queue.length);
      // Requests, connections and the next poll go first; what was published meanwhile queues behind (order kept).
      if (this.queue.length > 0) await yieldToEventLoop();
    }
    this.flushing = null;
  }

  /** The id of each pending event (undefined: none), one store append per network in the batch. */
  private async append(batch: readonly Pending[]): Promise<(number | undefined)[]> {
    const ids: (number | undefined)[] = new Array<number | undefined>(batch.length);
    const byNetwork = new Map<RenderedEvent['network'], number[]>();
    batch.forEach(({ rendered }, i) => {
      if (!rendered) return;
      let positions = byNetwork.get(rendered.network);
      if (!positions) byNetwork.set(rendered.network, (positions = []));
      positions.push(i);
    });
    const time = this.nowS();
    for (const [network, positions] of byNetwork) {
      try {
        const given = await this.log.append(network, positions.map((i) => batch[i]!.rendered!.entries), time);
        positions.forEach((position, k) => (ids[position] = given[k]));
        if (this.failing) this.logger.info('event log: writing again');
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.logger.warn('event log: write failed; events go out without event_id until it works again', { network, error: error instanceof Error ? error.message : String(error) });
        this.failing = true;
      }
    }
    return ids;
  }
}
