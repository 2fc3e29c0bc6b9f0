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

  async mempoolFees(): Promise<Record<string, number>> {
    const info = await this.rpc.call<Record<string, unknown>>('getmempoolinfo');
    const out: Record<string, number> = {};
    for (const key of ['mempoolminfee', 'minrelaytxfee', 'incrementalrelayfee']) if (typeof info[key] === 'number') out[key] = info[key];
    return out;
  }

  verboseTx(txid: string, blockHash: string | null): Promise<NodeReply> {
    return this.rpc.call('getrawtransaction', blockHash === null ? [txid, true] : [txid, true, blockHash]);
  }

  submitPackage(rawTxs: readonly string[]): Promise<NodeReply> {
    return this.rpc.call('submitpackage', [rawTxs]);
  }
}
