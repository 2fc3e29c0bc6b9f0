import type { AddressTouchedEvent, DomainEvent, DoubleSpendEvent, NetworkId } from '../../core/index.js';
import type { NetworkParams } from '../../chains/addressing.js';
import { balanceUpdatePayload } from '../payloads/balance-update.payload.js';
import { LastTxSummary } from '../../services/events/tx-summary.js';
import { blockUpdatePayload } from '../payloads/block-update.payload.js';
import { doubleSpendPayload } from '../payloads/double-spend.payload.js';
import { blockchainChannel, scriptKey, tickerChannel } from './channel-names.js';
import type { ChannelRegistry } from './channel-registry.js';
import { priceUpdatePayload } from '../payloads/price-update.payload.js';
import { channelEventFrame } from '../protocol/protocol-messages.js';
import { TxRate } from './tx-rate.js';
import { txUpdatePayload } from '../payloads/tx-update.payload.js';

export interface FanOutCounters {
  eventsDelivered: number;
}

/**
 * Domain events to channel events. A payload is built only when its channel has subscribers in
 * this process, and encoded once per channel whatever the number of subscribers. Disconnected
 * blocks and removed transactions have no channel event in the interface (docs/realtime.md); double spends have our `double_spend`.
 */
export class EventRouter {
  private readonly rates = new Map<NetworkId, TxRate>();
  /** A tx's summary is built once for all its address events (services/events/tx-summary.ts). */
  private readonly summaries = new LastTxSummary();

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly networks: ReadonlyMap<NetworkId, NetworkParams>,
    private readonly counters: FanOutCounters,
    private readonly nowMs: () => number = Date.now,
  ) {}

  route(event: DomainEvent): void {
    switch (event.kind) {
      case 'block_connected': {
        const channel = blockchainChannel(event.network);
        if (this.networks.has(event.network) && this.registry.has(channel)) this.publish(channel, 'block_update', blockUpdatePayload(event), event.eventId);
        return;
      }
      case 'tx_accepted': {
        if (!this.networks.has(event.network)) return;
        // Every process counts every accepted tx (each receives all events), so txpm agrees between processes.
        const rate = this.rateOf(event.network);
        rate.record(this.nowMs());
        const channel = blockchainChannel(event.network);
        if (this.registry.has(channel)) this.publish(channel, 'tx_update', txUpdatePayload(event, rate.perMinute(this.nowMs())), event.eventId);
        return;
      }
      case 'address_touched':
        this.routeAddress(event);
        return;
      case 'double_spend':
        this.routeDoubleSpend(event);
        return;
      case 'price': {
        const channel = tickerChannel(event.coin, event.base);
        if (this.registry.has(channel)) this.publish(channel, 'price_update', priceUpdatePayload(event), undefined);
        return;
      }
      default:
        return;
    }
  }

  private routeAddress(event: AddressTouchedEvent): void {
    const params = this.networks.get(event.network);
    const channels = params ? this.registry.addressChannels(scriptKey(event.network, event.delta.script)) : undefined;
    if (!params || !channels) return;
    const summary = this.summaries.of(event.tx, params, event.prevouts);
    for (const channel of channels) {
      const spec = this.registry.spec(channel);
      if (spec?.kind === 'address') this.publish(channel, 'balance_update', balanceUpdatePayload(spec.address, event, summary), event.eventId);
    }
  }

  /** On the network's blockchain channel, and once on each address channel of a script involved. */
  private routeDoubleSpend(event: DoubleSpendEvent): void {
    if (!this.networks.has(event.network)) return;
    const channel = blockchainChannel(event.network);
    if (this.registry.has(channel)) this.publish(channel, 'double_spend', doubleSpendPayload(event), event.eventId);
    const done = new Set<string>();
    for (const script of event.scripts) {
      for (const name of this.registry.addressChannels(scriptKey(event.network, script)) ?? []) {
        if (done.has(name)) continue;
        done.add(name);
        const spec = this.registry.spec(name);
        if (spec?.kind === 'address') this.publish(name, 'double_spend', doubleSpendPayload(event, spec.address), event.eventId);
      }
    }
  }

  private rateOf(network: NetworkId): TxRate {
    let rate = this.rates.get(network);
    if (!rate) this.rates.set(network, (rate = new TxRate()));
    return rate;
  }

  /** `eventId`: the event log's id (docs/realtime.md, Catch-up), sent as `event_id` beside `type` and `value`. */
  private publish(channel: string, eventName: string, payload: object, eventId: number | undefined): void {
    const data = eventId === undefined ? payload : { ...payload, event_id: eventId };
    const { delivered } = this.registry.publish(channel, channelEventFrame(channel, eventName, data));
    this.counters.eventsDelivered += delivered;
  }
}
