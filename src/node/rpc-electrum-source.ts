import type { ElectrumNodeSource, NodeReply } from '../core/sources/electrum-node.js';
import type { RpcClient } from './rpc/rpc-client.js';

/** The node's fee estimates, relay fees, verbose txs and package submission, for the Electrum server (one network). */
export class RpcElectrumSource implements ElectrumNodeSource {
  constructor(private readonly rpc: RpcClient) {}

  async estimateFee(target: number, mode: string | null): Promise<number> {
    const reply = await this.rpc.call<{ feerate?: unknown }>('estimatesmartfee', mode === null ? [target] : [target, mode]);
    // No estimate: Core leaves `feerate` out (and says why in `errors`), Dogecoin Core 1.14 answers -1.
    return typeof reply?.feerate === 'number' && reply.feerate >= 0 ? reply.feerate : -1;
  }

  async relayFee(): Promise<number> {
    return Number((await this.rpc.call<{ relayfee?: unknown }>('getnetworkinfo')).relayfee);
  }

  async mempoolFees(): Promise<Record<string, number | boolean>> {
    const info = await this.rpc.call<Record<string, unknown>>('getmempoolinfo');
    const out: Record<string, number | boolean> = {};
    // The protocol's three, and the two Fulcrum passes on too; the mempool's size is left out (a client need not know it).
    for (const key of ['mempoolminfee', 'minrelaytxfee', 'incrementalrelayfee', 'unbroadcastcount', 'fullrbf']) {
      const value = info[key];
      if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
    }
    return out;
  }

  /**
   * With the block's hash a node without -txindex answers too; it then adds `in_active_chain`, which is left out so the
   * answer is the node's usual one (Fulcrum's, which needs -txindex and never passes the block).
   */
  async verboseTx(txid: string, blockHash: string | null): Promise<NodeReply> {
    if (blockHash === null) return this.rpc.call('getrawtransaction', [txid, true]);
    const reply = await this.rpc.call<Record<string, unknown>>('getrawtransaction', [txid, true, blockHash]);
    delete reply.in_active_chain;
    return reply;
  }

  submitPackage(rawTxs: readonly string[]): Promise<NodeReply> {
    return this.rpc.call('submitpackage', [rawTxs]);
  }
}
