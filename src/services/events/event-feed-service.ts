import { decodeAddress } from '../../chains/addressing.js';
import { EventsExpiredError, InvalidArgumentError } from '../../core/domain/errors.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { EventLogStore, StoredChannelEvent } from '../../core/store/event-log-store.js';
import type { ClientBudget } from '../limits/client-budget.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { addressChannel, addressKey, blockchainChannel, BLOCKCHAIN_KEY, walletChannel, WALLET_ID, walletKey } from './catalogue/event-channels.js';
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

/** Log rows read (and their txs filled in) at a time: a page's memory is this many events, whatever its size. */
export const FEED_BATCH = 16;

/** The channel's events after a cursor as they are read, for a caller that bounds the page by what it sends. */
export interface FeedStream {
  readonly network: NetworkId;
  readonly channel: string;
  readonly after: number;
  readonly lastEventId: number;
  /** At most the page's `limit` events, oldest first, read FEED_BATCH at a time; stop early by leaving the loop. */
  events(): AsyncGenerator<FeedEvent>;
  /** Once events() has ended by itself: whether the log holds more after the last event it gave. */
  readonly more: boolean;
}

export interface FeedLimits {
  /** Most bytes of events one page holds as sent (`[realtime] feed_page_kib`); at least one event goes whatever its size. */
  readonly pageBytes: number;
  /** The bytes sent per client network and minute (`[realtime] feed_mib_per_minute`). */
  readonly budget: ClientBudget;
}

/** 1 MiB: thousands of ordinary events, a few dozen of the largest (a tx paying hundreds of outputs each). */
export const DEFAULT_FEED_PAGE_BYTES = 1024 * 1024;

/**
 * The catch-up feed (`GET /api/v2/events/{NETWORK}`, docs/realtime.md): the events of one channel after an id, as they
 * went out live. Ticker channels have no ids (a price is a current value: read the latest instead) and are refused.
 * A page is bounded by count and by bytes (a `balance_update` carries its whole tx): the route streams it as it is
 * read, a batch of log rows at a time, so neither a page nor five at once are held whole.
 */
export class EventFeedService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly log: EventLogStore,
    readonly limits: FeedLimits,
  ) {}

  /**
   * The page's events as they are read; throws (before anything is read past the first batch) for a bad channel or
   * network, or a cursor the log cannot answer from (EventsExpiredError).
   */
  async open(network: string, channel: string, after: number, limit = MAX_FEED_EVENTS): Promise<FeedStream> {
    const ctx = this.networks.resolve(network);
    const target = this.channel(ctx.id, ctx.params, channel);
    const take = Math.max(1, Math.min(limit, MAX_FEED_EVENTS));
    const first = await this.log.read(ctx.id, target.key, after, Math.min(FEED_BATCH, take) + 1);
    if (after < first.prunedThrough) {
      throw new EventsExpiredError(
        `events after ${after} are no longer kept (the log starts after ${first.prunedThrough}); resync: re-read current state over REST, then follow from last_event_id`,
      );
    }
    if (after > first.lastEventId) {
      throw new EventsExpiredError(`no event ${after} was ever given on ${ctx.id} (the newest is ${first.lastEventId}; the log was reset); resync: re-read current state over REST`);
    }
    const log = this.log;
    const fill = (rows: readonly StoredChannelEvent[]): Promise<FeedEvent[]> => filled(ctx, target, rows);
    const stream = {
      network: ctx.id, channel, after, lastEventId: first.lastEventId, more: false,
      async *events(): AsyncGenerator<FeedEvent> {
        let page = first;
        let cursor = after;
        let given = 0;
        for (;;) {
          const want = Math.min(FEED_BATCH, take - given);
          for (const event of await fill(page.events.slice(0, want))) {
            yield event;
            cursor = event.eventId;
            given++;
          }
          stream.more = page.events.length > want;
          if (!stream.more || given >= take) return;
          page = await log.read(ctx.id, target.key, cursor, Math.min(FEED_BATCH, take - given) + 1);
          // Pruned past the cursor meanwhile: the page ends here, and the next one answers 410.
          if (page.prunedThrough > cursor) return;
        }
      },
    };
    return stream;
  }

  /** A whole page (no byte bound): for callers that hold it anyway (tests). */
  async after(network: string, channel: string, after: number, limit = MAX_FEED_EVENTS): Promise<FeedPage> {
    const stream = await this.open(network, channel, after, limit);
    const events: FeedEvent[] = [];
    for await (const event of stream.events()) events.push(event);
    return {
      network: stream.network, channel, events, cursor: events.length > 0 ? events[events.length - 1]!.eventId : after, hasMore: stream.more, lastEventId: stream.lastEventId,
    };
  }

  private channel(network: NetworkId, params: Parameters<typeof decodeAddress>[0], name: string): FeedChannel {
    if (name === blockchainChannel(network)) return { key: BLOCKCHAIN_KEY, address: null };
    const walletPrefix = walletChannel(network, '');
    if (name.startsWith(walletPrefix)) {
      const wallet = name.slice(walletPrefix.length);
      if (!WALLET_ID.test(wallet)) throw new InvalidArgumentError('channel', `${name.slice(0, 120)}: expected ${walletChannel(network, '{checksum}')}, the descriptor's 8-character checksum`);
      return { key: walletKey(wallet), address: null };
    }
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
    // Worded as before wallet channels (the golden story of test/integration/event-shapes.test.ts keeps it); docs/realtime.md lists them.
    throw new InvalidArgumentError('channel', `expected ${addressChannel(network, '{address}')} or ${blockchainChannel(network)} (ticker channels have no event ids)`);
  }
}

/** Log rows as the live events were: payload parsed, the txs they name filled in from the index, the address spelling put back. */
async function filled(ctx: NetworkContext, target: FeedChannel, rows: readonly StoredChannelEvent[]): Promise<FeedEvent[]> {
  const parsed = rows.map((e) => {
    const data = JSON.parse(e.payload) as { type: string; value: Record<string, unknown> };
    return { e, data, txid: loggedTxid(data.value['tx']) };
  });
  const txids = [...new Set(parsed.map(({ txid }) => txid).filter((id): id is string => id !== null))];
  const summaries = txids.length > 0 ? await feedTxSummaries(ctx, txids) : null;
  return parsed.map(({ e, data, txid }): FeedEvent => {
    let value = data.value;
    if (txid !== null) value = { ...value, tx: summaries!.get(txid) };
    if (target.address !== null) {
      const { address: _unused, ...rest } = value;
      value = { address: target.address, ...rest };
    }
    return { eventId: e.eventId, event: e.event, time: e.time, data: { type: data.type, value, event_id: e.eventId } };
  });
}
