import { formatCoins, type DomainEvent, type NetworkId } from '../../core/index.js';
import type { NetworkParams } from '../../chains/addressing.js';
import { addressKey, BLOCKCHAIN_KEY, txSummaryKey, type RenderedEvent } from '../../services/events/event-channel-keys.js';
import { LastTxSummary } from '../../services/events/tx-summary.js';
import { blockUpdatePayload } from '../payloads/block-update.payload.js';
import { doubleSpendPayload } from '../payloads/double-spend.payload.js';
import { txUpdatePayload } from '../payloads/tx-update.payload.js';
import { TxRate } from './tx-rate.js';

/**
 * The channel events a domain event makes, for the event log (services/events/logged-event-bus.ts): the payloads the
 * live router builds, for every channel whether or not anyone listens now, since a client may ask for them later.
 * Address payloads leave `address` out: the feed puts in the spelling of the channel asked for, as live events do.
 */
export class EventLogEntries {
  private readonly rates = new Map<NetworkId, TxRate>();
  private readonly summaries = new LastTxSummary();

  constructor(
    private readonly networks: ReadonlyMap<NetworkId, NetworkParams>,
    private readonly nowMs: () => number = Date.now,
  ) {}

  readonly render = (event: DomainEvent): RenderedEvent | null => {
    if (!('network' in event) || !this.networks.has(event.network)) return null;
    const network = event.network;
    switch (event.kind) {
      case 'block_connected':
        return { network, entries: [{ channelKey: BLOCKCHAIN_KEY, event: 'block_update', payload: JSON.stringify(blockUpdatePayload(event)) }] };
      case 'tx_accepted': {
        let rate = this.rates.get(network);
        if (!rate) this.rates.set(network, (rate = new TxRate()));
        rate.record(this.nowMs());
        return { network, entries: [{ channelKey: BLOCKCHAIN_KEY, event: 'tx_update', payload: JSON.stringify(txUpdatePayload(event, rate.perMinute(this.nowMs()))) }] };
      }
      case 'address_touched': {
        const { sent, received } = event.delta;
        const amounts = { value_sent: formatCoins(sent), value_received: formatCoins(received), balance_change: formatCoins(received - sent) };
        if (event.confirmed) {
          // A tx first seen in a block is in the index for good (a reorg keeps it as orphaned): the log keeps its txid
          // and the feed rebuilds its inputs and outputs from the index (services/events/feed-tx-summaries.ts). Rendering
          // and logging every block tx's summary took ~0.4 s of a 2,000-tx block's connect (docs/benchmarks.md).
          return { network, entries: [{ channelKey: addressKey(event.delta.script), event: 'balance_update', payload: balancePayload(amounts, { $txid: event.txid }) }] };
        }
        // A mempool tx may leave the index (replaced, evicted): its inputs and outputs are logged once per append as
        // a shared body (event-log-store.ts) that each of its address events points to, so clients read what they
        // would have live.
        const params = this.networks.get(network)!;
        const key = txSummaryKey(event.tx.txid);
        return {
          network,
          entries: [
            { channelKey: addressKey(event.delta.script), event: 'balance_update', payload: balancePayload(amounts, { $ref: key }) },
            { channelKey: key, event: 'tx_summary', payload: this.summaries.jsonOf(event.tx, params, event.prevouts), shared: true },
          ],
        };
      }
      case 'double_spend': {
        const payload = JSON.stringify(doubleSpendPayload(event));
        return {
          network,
          entries: [BLOCKCHAIN_KEY, ...event.scripts.map(addressKey)].map((channelKey) => ({ channelKey, event: 'double_spend', payload })),
        };
      }
      default:
        return null;
    }
  };
}

/** A balance_update as logged: no `address` (the feed puts in the channel's spelling), `tx` a reference. */
function balancePayload(amounts: Record<string, string>, tx: Record<string, string>): string {
  return JSON.stringify({ type: 'address', value: { ...amounts, tx } });
}
