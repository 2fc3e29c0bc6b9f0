import type { DomainEvent, EventBus } from '../domain/events.js';

/**
 * In-process fan-out. A throwing subscriber must not stop delivery to the others,
 * nor propagate into the indexer that published the event.
 */
export class MemoryEventBus implements EventBus {
  private readonly handlers = new Set<(event: DomainEvent) => void>();
  private readonly onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void = () => undefined) {
    this.onError = onError;
  }

  publish(event: DomainEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  subscribe(handler: (event: DomainEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }
}
