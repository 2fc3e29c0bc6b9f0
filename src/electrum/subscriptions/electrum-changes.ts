/**
 * The one place the Electrum server reads domain events: the bus the indexer publishes on (the same pass from block to
 * event as realtime and webhooks), each event taken through its kind's `electrum` entry in the event catalogue
 * (services/events/catalogue/event-catalogue.ts), which says what it changes for subscriptions (electrum-change.ts).
 */
import type { EventBus } from '../../core/domain/events.js';
import type { ElectrumChange } from '../../services/events/catalogue/electrum-change.js';
import { kindOf } from '../../services/events/catalogue/event-catalogue.js';

export type { ElectrumChange };

/** Subscribes to the bus; the returned function unsubscribes. */
export function followElectrumChanges(bus: EventBus, onChange: (change: ElectrumChange) => void): () => void {
  return bus.subscribe((event) => {
    const change = kindOf(event).electrum?.(event);
    if (change) onChange(change);
  });
}
