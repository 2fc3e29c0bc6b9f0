import type { DomainEvent, EventBus } from '../../core/domain/events.js';

/**
 * The publishing side of a bus with a listener of what this process publishes (not what other processes publish and
 * Redis brings): the webhook matcher, which must make each event's deliveries once, in the one writer of a network.
 */
export function tappedBus(bus: EventBus, tap: (event: DomainEvent) => void): EventBus {
  return {
    publish(event) {
      tap(event);
      bus.publish(event);
    },
    subscribe: (handler) => bus.subscribe(handler),
  };
}
