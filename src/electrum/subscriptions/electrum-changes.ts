/**
 * The one place the Electrum server reads domain events (the event bus the indexer publishes on, the same pass from
 * block to event as realtime and webhooks): it turns them into what Electrum subscriptions need to know. Kept in one
 * file so the source can be re-pointed (an event catalogue) without touching the subscriptions.
 *
 * - `scripts`: these scripts' histories changed (a tx entered the mempool, or was first seen in a block);
 * - `tx-gone`: a mempool tx left the mempool (confirmed, replaced, evicted, conflicted): whoever had it changed;
 * - `block`: a block was connected (headers; mempool txs whose parent it confirmed go from height -1 to 0);
 * - `reorg`: a block was disconnected at `height`: every status may have changed.
 */
import type { EventBus } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';

export type ElectrumChange =
  | { readonly kind: 'scripts'; readonly network: NetworkId; readonly scripts: readonly Uint8Array[] }
  | { readonly kind: 'tx-gone'; readonly network: NetworkId; readonly txid: string }
  | { readonly kind: 'block'; readonly network: NetworkId; readonly height: number; readonly hash: string }
  | { readonly kind: 'reorg'; readonly network: NetworkId; readonly height: number };

/** Subscribes to the bus; the returned function unsubscribes. */
export function followElectrumChanges(bus: EventBus, onChange: (change: ElectrumChange) => void): () => void {
  return bus.subscribe((event) => {
    switch (event.kind) {
      case 'tx_accepted':
        onChange({ kind: 'scripts', network: event.network, scripts: event.deltas.map((d) => d.script) });
        break;
      case 'address_touched':
        onChange({ kind: 'scripts', network: event.network, scripts: [event.delta.script] });
        break;
      case 'double_spend':
        onChange({ kind: 'scripts', network: event.network, scripts: event.scripts });
        break;
      case 'tx_removed':
        onChange({ kind: 'tx-gone', network: event.network, txid: event.txid });
        break;
      case 'block_connected':
        onChange({ kind: 'block', network: event.network, height: event.height, hash: event.hash });
        break;
      case 'block_disconnected':
        onChange({ kind: 'reorg', network: event.network, height: event.height });
        break;
      default:
        break;
    }
  });
}
