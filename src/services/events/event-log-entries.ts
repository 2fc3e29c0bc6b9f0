import type { DomainEvent } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { LoggedChannelEvent } from '../../core/store/event-log-store.js';
import type { NetworkParams } from '../../chains/network-params.js';
import { kindOf } from './catalogue/event-catalogue.js';
import { RenderState } from './catalogue/render-state.js';

/** A domain event's channel events as the log keeps them; null for events that have none (disconnected blocks, removals, prices). */
export interface RenderedEvent {
  readonly network: NetworkId;
  readonly entries: readonly LoggedChannelEvent[];
}

/** The channel events a domain event makes, built as the live ones are (the logged bus's renderer). */
export type EventLogRenderer = (event: DomainEvent) => RenderedEvent | null;

/**
 * The channel events a domain event makes, for the event log (logged-event-bus.ts): each kind's logged form in the
 * event catalogue, for every channel whether or not anyone listens now, since a client may ask for them later.
 * Address payloads leave `address` out: the feed puts in the spelling of the channel asked for, as live events do.
 */
export class EventLogEntries {
  private readonly state: RenderState;

  constructor(networks: ReadonlyMap<NetworkId, NetworkParams>, nowMs: () => number = Date.now) {
    this.state = new RenderState(networks, nowMs);
  }

  readonly render: EventLogRenderer = (event) => {
    if (!('network' in event) || !this.state.serves(event.network)) return null;
    const logged = kindOf(event).logged;
    return logged ? { network: event.network, entries: logged(event, this.state) } : null;
  };
}
