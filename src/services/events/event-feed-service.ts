import { decodeAddress } from '../../chains/addressing.js';
import { EventsExpiredError, InvalidArgumentError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { EventLogStore } from '../../core/store/event-log-store.js';
import type { NetworkRegistry } from '../shared/network-registry.js';
import { addressChannel, addressKey, blockchainChannel, BLOCKCHAIN_KEY } from './catalogue/event-channels.js';
import { feedTxSummaries, loggedTxid } from './feed-tx-summaries.js';

/** Most events one call answers (the page size); a client pages with the returned cursor. */
export const MAX_FEED_EVENTS = 1000;

/** One channel event as a client saw it live: `data` is the object pusher-js decodes, `event_id` included. */
export interface FeedEvent {
  readonly eventId: number;
  readonly event: string;
  /** UNIX seconds when it was logged. */
  readonly time: number;
  readonly data: { readonly type: string; readonly value: Record<string, unknown>; readonly event_id: number };
}

export interface FeedPage {
  readonly network: NetworkId;
  readonly channel: string;
  readonly events: readonly FeedEvent[];
  /** Pass as `after` for the next page (the last id returned, or `after` when none). */
  readonly cursor: number;
  readonly hasMore: boolean;
  /** The newest id of the network: a client with nothing to catch up can start from it. */
  readonly lastEventId: number;
}

interface FeedChannel {
  readonly key: string;
  /** An address channel's spelling, put in `value.address` as the live event has it. */
  readonly address: string | null;
}

/**
 * The catch-up feed (`GET /api/v2/events/{NETWORK}`, docs/realtime.md): the events of one channel after an id, as they
 * went out live. Ticker channels have no ids (a price is a current value: read the latest instead) and are refused.
 */
export class EventFeedService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly log: EventLogStore,
  ) {}

  async after(network: string, channel: string, after: number, limit = MAX_FEED_EVENTS): Promise<FeedPage> {
    const ctx = this.networks.resolve(network);
    const target = this.channel(ctx.id, ctx.params, channel);
    const page = await this.log.read(ctx.id, target.key, after, Math.min(limit, MAX_FEED_EVENTS) + 1);
    if (after < page.prunedThrough) {
      throw new EventsExpiredError(
        `events after ${after} are no longer kept (the log starts after ${page.prunedThrough}); resync: re-read current state over REST, then follow from last_event_id`,
      );
    }
    if (after > page.lastEventId) {
      throw new EventsExpiredError(`no event ${after} was ever given on ${ctx.id} (the newest is ${page.lastEventId}; the log was reset); resync: re-read current state over REST`);
    }
    const take = Math.min(limit, MAX_FEED_EVENTS);
    const parsed = page.events.slice(0, take).map((e) => {
      const data = JSON.parse(e.payload) as { type: string; value: Record<string, unknown> };
      return { e, data, txid: loggedTxid(data.value['tx']) };
    });
    const txids = [...new Set(parsed.map(({ txid }) => txid).filter((id): id is string => id !== null))];
    const summaries = txids.length > 0 ? await feedTxSummaries(ctx, txids) : null;
    const events = parsed.map(({ e, data, txid }): FeedEvent => {
      let value = data.value;
      if (txid !== null) value = { ...value, tx: summaries!.get(txid) };
      if (target.address !== null) {
        const { address: _unused, ...rest } = value;
        value = { address: target.address, ...rest };
      }
      return { eventId: e.eventId, event: e.event, time: e.time, data: { type: data.type, value, event_id: e.eventId } };
    });
    return {
      network: ctx.id,
      channel,
      events,
      cursor: events.length > 0 ? events[events.length - 1]!.eventId : after,
      hasMore: page.events.length > take,
      lastEventId: page.lastEventId,
    };
  }

  private channel(network: NetworkId, params: Parameters<typeof decodeAddress>[0], name: string): FeedChannel {
    if (name === blockchainChannel(network)) return { key: BLOCKCHAIN_KEY, address: null };
    const prefix = addressChannel(network, '');
    if (name.startsWith(prefix)) {
      const address = name.slice(prefix.length);
      let script: Uint8Array | null;
      try {
        script = decodeAddress(params, address).script;
      } catch (error) {
        if (error instanceof InvalidArgumentError) throw new InvalidArgumentError('channel', `${name.slice(0, 120)}: ${error.message}`);
        throw error;
      }
      if (script === null) throw new InvalidArgumentError('channel', 'MWEB stealth addresses have no visible transactions');
      return { key: addressKey(script), address };
    }
    throw new InvalidArgumentError('channel', `expected ${addressChannel(network, '{address}')} or ${blockchainChannel(network)} (ticker channels have no event ids)`);
  }
}
