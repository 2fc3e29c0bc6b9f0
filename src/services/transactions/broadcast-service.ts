import type { TxBroadcaster } from '../../core/sources/broadcaster.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** Twice Core's 4,000,000-weight limit in bytes: no valid transaction is longer (as hex characters). */
const MAX_TX_HEX = 8_000_000;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export interface Broadcast {
  readonly network: NetworkContext;
  readonly txid: string;
}

/**
 * Relays signed transactions to the network's node. Only the hex syntax is checked here; every
 * consensus and policy judgement is the node's, and its reason reaches the caller (TxRejectedError).
 */
export class BroadcastService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly broadcaster: TxBroadcaster,
  ) {}

  async send(network: string, txHex: unknown): Promise<Broadcast> {
    const ctx = this.networks.resolve(network);
    if (typeof txHex !== 'string' || txHex.length === 0) throw new InvalidArgumentError('tx_hex', 'tx_hex (hex of a signed transaction) is required');
    const hex = txHex.trim();
    if (hex.length > MAX_TX_HEX || !HEX.test(hex)) throw new InvalidArgumentError('tx_hex', 'tx_hex must be an even-length hexadecimal string');
    const txid = await this.broadcaster.broadcast(ctx.id, hex.toLowerCase());
    return { network: ctx, txid };
  }
}
