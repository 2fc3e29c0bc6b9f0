/**
 * The serving process's event bus, forwarded to its HTTP workers (realtime, and the caches its events invalidate):
 * the events published in one turn of the event loop go as one batch, encoded once for every worker with the Redis
 * bus's codec (redis/event-codec.ts: a tx shared by 5,000 `address_touched` events is written once, and decoded into
 * one object again, as the realtime router's per-tx memo expects).
 */
import type { DomainEvent, EventBus } from '../../../core/index.js';
import { decodeEventBatch, encodeEventBatches } from '../../../redis/event-codec.js';

export interface EventsMessage {
  readonly type: 'events';
  readonly batch: string;
}

/** Subscribes to `bus` and hands each encoded batch to `send`; returns what unsubscribes. */
export function forwardEvents(bus: EventBus, send: (message: EventsMessage) => void, onError: (error: Error) => void): () => void {
  let pending: DomainEvent[] = [];
  const flush = (): void => {
    const events = pending;
    pending = [];
    try {
      for (const batch of encodeEventBatches(events)) send({ type: 'events', batch });
    } catch (error) {
      onError(error as Error);
    }
  };
  return bus.subscribe((event) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(event);
  });
}

/** The worker's side: the batch's events, in order, onto its own bus. */
export function publishEvents(bus: EventBus, message: EventsMessage): void {
  for (const event of decodeEventBatch(message.batch)) bus.publish(event);
}
