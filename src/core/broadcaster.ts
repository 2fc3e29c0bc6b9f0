import type { NetworkId } from './network.js';
import { OutpointError } from './errors.js';

/** The network refused a transaction; `reason` is the node's own message (e.g. "bad-txns-inputs-missingorspent"). */
export class TxRejectedError extends OutpointError {
  readonly reason: string;
  constructor(reason: string) {
    super('REJECTED', `transaction rejected: ${reason}`);
    this.reason = reason;
  }
}

/** Submits a signed transaction to a network through its node. */
export interface TxBroadcaster {
  /** Resolves with the txid; rejects with TxRejectedError when the node refuses the transaction. */
  broadcast(network: NetworkId, txHex: string): Promise<string>;
}
