import { type TxBroadcaster } from '../core/sources/broadcaster.js';
import { TxRejectedError, RpcError } from '../core/domain/errors.js';
import type { NetworkId } from '../core/domain/network.js';
import { parseTransaction } from '../chains/parsing.js';
import type { RpcClient } from './rpc/rpc-client.js';

/** RPC_TRANSACTION_ALREADY_IN_CHAIN: the tx is confirmed (Core and Dogecoin Core 1.14 say so while an output is unspent). */
const ALREADY_IN_CHAIN = -27;

/**
 * Core's codes for "the node judged the transaction and refused it" (as opposed to "the node is
 * unwell"): deserialization, missing inputs / verify error, rejected, and the generic misc and
 * parameter errors some versions use for policy rejections.
 */
const REJECTION_CODES = new Set([-22, -25, -26, -1, -8]);

/**
 * Broadcasts through each network's node (`sendrawtransaction` with the hex only: its second parameter is a
 * bool on Dogecoin Core 1.14 and a number on newer Core). Resending is idempotent on every supported node: a tx
 * already in the mempool is answered with its txid, and one already confirmed (-27) is reported as delivered
 * too, with the txid our parser computes, because the network does have it. The node's reason for a refusal
 * reaches the caller. (A confirmed tx whose outputs are all spent gets -25 "Missing inputs" from the node: it
 * cannot be told from a tx spending unknown coins, so it stays a rejection.)
 */
export class RpcBroadcaster implements TxBroadcaster {
  constructor(private readonly nodes: ReadonlyMap<NetworkId, RpcClient>) {}

  async broadcast(network: NetworkId, txHex: string): Promise<string> {
    const rpc = this.nodes.get(network);
    if (!rpc) throw new TxRejectedError(`no node configured for ${network}`);
    try {
      return await rpc.call<string>('sendrawtransaction', [txHex]);
    } catch (error) {
      if (error instanceof RpcError && error.rpcCode === ALREADY_IN_CHAIN) return txidOf(txHex, error);
      if (error instanceof RpcError && REJECTION_CODES.has(error.rpcCode)) throw new TxRejectedError(error.message);
      throw error;
    }
  }
}

function txidOf(txHex: string, cause: RpcError): string {
  try {
    // MWEB bodies are allowed so a Litecoin tx parses; the node accepted the bytes as a transaction already.
    return parseTransaction(Buffer.from(txHex, 'hex'), { mweb: true }).txid;
  } catch {
    throw new TxRejectedError(cause.message);
  }
}
