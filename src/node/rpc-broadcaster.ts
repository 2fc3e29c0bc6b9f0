import { TxRejectedError, type TxBroadcaster } from '../core/broadcaster.js';
import { RpcError } from '../core/errors.js';
import type { NetworkId } from '../core/network.js';
import type { RpcClient } from './rpc-client.js';

/**
 * Core's codes for "the node judged the transaction and refused it" (as opposed to "the node is
 * unwell"): deserialization, verify error/rejected, already in chain, and the generic misc error
 * some versions use for policy rejections.
 */
const REJECTION_CODES = new Set([-22, -25, -26, -27, -1, -8]);

/** Broadcasts through each network's node (`sendrawtransaction`); the node's reason reaches the caller. */
export class RpcBroadcaster implements TxBroadcaster {
  constructor(private readonly nodes: ReadonlyMap<NetworkId, RpcClient>) {}

  async broadcast(network: NetworkId, txHex: string): Promise<string> {
    const rpc = this.nodes.get(network);
    if (!rpc) throw new TxRejectedError(`no node configured for ${network}`);
    try {
      return await rpc.call<string>('sendrawtransaction', [txHex]);
    } catch (error) {
      if (error instanceof RpcError && REJECTION_CODES.has(error.rpcCode)) throw new TxRejectedError(error.message);
      throw error;
    }
  }
}
