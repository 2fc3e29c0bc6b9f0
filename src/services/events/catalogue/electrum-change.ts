import type { NetworkId } from '../../../core/domain/network.js';

/**
 * What a domain event changes for an Electrum server's subscriptions (docs/electrum.md, "Subscriptions"), as the event
 * catalogue's `electrum` entry of its kind says:
 *
 * - `scripts`: these scripts' histories changed (a tx entered the mempool, or was first seen in a block);
 * - `tx-gone`: a mempool tx left the mempool (confirmed, replaced, evicted, conflicted): whoever had it changed;
 * - `block`: a block was connected (headers; mempool txs whose parent it confirmed go from height -1 to 0);
 * - `reorg`: a block was disconnected at `height`: every status may have changed.
 */
export type ElectrumChange =
  | { readonly kind: 'scripts'; readonly network: NetworkId; readonly scripts: readonly Uint8Array[] }
  | { readonly kind: 'tx-gone'; readonly network: NetworkId; readonly txid: string }
  | { readonly kind: 'block'; readonly network: NetworkId; readonly height: number; readonly hash: string }
  | { readonly kind: 'reorg'; readonly network: NetworkId; readonly height: number };
