import type { NetworkId } from '../domain/network.js';

/** Submits a signed transaction to a network through its node. */
export interface TxBroadcaster {
  /** Resolves with the txid; rejects with TxRejectedError when the node refuses the transaction. */
  broadcast(network: NetworkId, txHex: string): Promise<string>;
}
