import type { DomainEvent, NetworkId } from '../../core/index.js';
import type { NetworkParams } from '../../chains/addressing.js';
import { addressKey, BLOCKCHAIN_KEY, txSummaryKey, type RenderedEvent } from '../../services/events/event-channel-keys.js';
import { balanceUpdatePayload, LastTxSummary } from '../payloads/balance-update.payload.js';
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
        // The tx's inputs and outputs are logged once per append as a shared body (event-log-store.ts) that each of
        // its address events points to: the feed puts them back, so clients read what they would have live.
        const params = this.networks.get(network)!;
        const key = txSummaryKey(event.tx.txid);
        const { address: _unused, tx: _shared, ...amounts } = balanceUpdatePayload('', event, this.summaries.of(event.tx, params, event.prevouts)).value;
        return {
          network,
          entries: [
            { channelKey: addressKey(event.delta.script), event: 'balance_update', payload: JSON.stringify({ type: 'address', value: { ...amounts, tx: { $ref: key } } }) },
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
