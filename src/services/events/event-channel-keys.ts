import type { DomainEvent } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { LoggedChannelEvent } from '../../core/store/event-log-store.js';

/**
 * How a channel is named inside the event log of its network: `blockchain` for `blockchain_update_{network}`, the
 * output script in hex for `address_{network}_{address}` (so every spelling of one address reads the same rows, as
 * live events reach every spelling). Written by realtime's renderer, read by the catch-up feed.
 */
export const BLOCKCHAIN_KEY = 'blockchain';

export function addressKey(script: Uint8Array): string {
  return Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('hex');
}

/** The key of a tx's shared summary in the log (`{"$ref":…}` in its address events' payloads; no channel reads it). */
export function txSummaryKey(txid: string): string {
  return `tx:${txid}`;
}

/** A domain event's channel events as the log keeps them; null for events that have none (disconnected blocks, removals, prices). */
export interface RenderedEvent {
  readonly network: NetworkId;
  readonly entries: readonly LoggedChannelEvent[];
}

/** Realtime's renderer (main passes it): the channel events a domain event makes, built as the live ones are. */
export type EventLogRenderer = (event: DomainEvent) => RenderedEvent | null;
