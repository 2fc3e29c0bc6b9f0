import type { DomainEvent, LoggedEvent, NetworkId } from '../../core/index.js';
import type { NetworkParams } from '../../chains/addressing.js';
import { kindOf, type LiveOut } from '../../services/events/catalogue/event-catalogue.js';
import { scriptKey } from '../../services/events/catalogue/event-channels.js';
import { RenderState } from '../../services/events/catalogue/render-state.js';
import type { ChannelRegistry } from './channel-registry.js';
import { channelEventFrame } from '../protocol/protocol-messages.js';

export interface FanOutCounters {
  eventsDelivered: number;
}

/**
 * Domain events to the channels of this process's subscribers. What an event sends, to which channels, is its kind's
 * live form in the event catalogue (services/events/catalogue/event-catalogue.ts); this only fans out: a payload is
 * built only when its channel has subscribers here, and encoded once per channel whatever their number.
 */
export class EventRouter {
  private readonly state: RenderState;
  /** The event being routed: its log id goes with each of its channel events. */
  private eventId: number | undefined;

  constructor(
    private readonly registry: ChannelRegistry,
    networks: ReadonlyMap<NetworkId, NetworkParams>,
    private readonly counters: FanOutCounters,
    nowMs: () => number = Date.now,
  ) {
    this.state = new RenderState(networks, nowMs);
  }

  route(event: DomainEvent): void {
    const live = kindOf(event).live;
    if (!live || ('network' in event && !this.state.serves(event.network))) return;
    this.eventId = (event as LoggedEvent).eventId;
    live(event, this.out, this.state);
  }

  private readonly out: LiveOut = {
    channel: (name, eventName, payload) => {
      if (this.registry.has(name)) this.publish(name, eventName, payload());
    },
    addresses: (network, scripts, eventName, payload) => {
      // One script (an address event) has no spelling twice; several (a double spend) may share channels.
      const done = scripts.length > 1 ? new Set<string>() : null;
      for (const script of scripts) {
        for (const name of this.registry.addressChannels(scriptKey(network, script)) ?? []) {
          if (done) {
            if (done.has(name)) continue;
            done.add(name);
          }
          const spec = this.registry.spec(name);
          if (spec?.kind === 'address') this.publish(name, eventName, payload(spec.address));
        }
      }
    },
  };

  /** The event log's id (docs/realtime.md, Catch-up) is sent as `event_id` beside `type` and `value`. */
  private publish(channel: string, eventName: string, payload: object): void {
    const eventId = this.eventId;
    const data = eventId === undefined ? payload : { ...payload, event_id: eventId };
    const { delivered } = this.registry.publish(channel, channelEventFrame(channel, eventName, data));
    this.counters.eventsDelivered += delivered;
  }
}
