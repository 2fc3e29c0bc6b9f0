import type { NetworkId } from '../domain/network.js';

/**
 * The realtime event log (docs/realtime.md, Catch-up): every channel event a network's events produced, kept for a
 * while so a client that was disconnected can ask what it missed. One domain event gets one `event_id` per network
 * (allocated by the store, so ids are unique and increasing across processes) and one row per channel it goes to.
 */

/** One channel event as logged: where it goes and what it says. */
export interface LoggedChannelEvent {
  /** The channel within the network: `blockchain`, or an address channel's output script in hex (every spelling shares it). */
  readonly channelKey: string;
  /** The Pusher event name (`balance_update`, `tx_update`, …). */
  readonly event: string;
  /**
   * The event's `data` as JSON text, without `event_id` and (address channels) without `value.address`: both are added
   * on reading. A `{"$ref":"KEY"}` in it stands for the body of the shared entry with channel key KEY, put in on reading.
   * A `{"$txid":"…"}` is left as it is: the catch-up feed puts the tx's inputs and outputs there from the index.
   */
  readonly payload: string;
  /**
   * A body other entries point to with `{"$ref":"KEY"}` (a tx's inputs and outputs, the same in every address event
   * of that tx): written once per append, with the highest id of the events that carry it, so it is pruned with the
   * last of them. Without it a tx paying 5,000 addresses logged its 5,000-output summary 5,000 times (gigabytes).
   */
  readonly shared?: boolean;
}

/** A logged channel event read back. */
export interface StoredChannelEvent {
  readonly eventId: number;
  readonly event: string;
  readonly payload: string;
  /** UNIX seconds when it was logged. */
  readonly time: number;
}

export interface EventLogPage {
  readonly events: readonly StoredChannelEvent[];
  /** Every id at or below this was pruned (0: nothing yet): a cursor below it may have missed events. */
  readonly prunedThrough: number;
  /** The newest id allocated on the network (0: none yet). */
  readonly lastEventId: number;
}

export interface EventLogStore {
  /**
   * Logs domain events of one network in one transaction: `events[i]` is the i-th domain event's channel events.
   * Resolves the ids given to them, consecutive and above every id given before (across processes: the allocation
   * and the rows commit together, so ids become visible in increasing order).
   */
  append(network: NetworkId, events: readonly (readonly LoggedChannelEvent[])[], time: number): Promise<number[]>;
  /** A channel's events with an id above `afterId`, oldest first, at most `limit`. */
  read(network: NetworkId, channelKey: string, afterId: number, limit: number): Promise<EventLogPage>;
  /** Deletes the network's events logged before `before` (UNIX seconds) or more than `keepLast` ids below the newest; resolves how many rows went. */
  prune(network: NetworkId, before: number, keepLast: number): Promise<number>;
}
