import type { DomainEvent, EventBus } from '../../core/domain/events.js';

/**
 * The publishing side of a bus with a listener of what this process publishes (not what other processes publish and
 * Redis brings): the webhook matcher, which must make each event's deliveries once, in the one writer of a network.
 */
export function tappedBus(bus: EventBus, tap: { onEvent(event: DomainEvent): void; absorbed?(maxQueued?: number): Promise<void> }): EventBus {
  return {
    publish(event) {
      tap.onEvent(event);
      bus.publish(event);
    },
    subscribe: (handler) => bus.subscribe(handler),
    // The publisher goes on once both the listener and the bus have taken up what it published (core EventBus).
    absorbed: async (maxQueued?: number) => {
      await tap.absorbed?.(maxQueued);
      await bus.absorbed?.(maxQueued);
    },
  };
}
