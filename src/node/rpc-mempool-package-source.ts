import { RpcError } from '../core/domain/errors.js';
import type { MempoolPackage, MempoolPackageSource } from '../core/sources/mempool-package-source.js';
import type { NodeClient } from './rpc/node-client.js';
import { parseMempoolEntry } from './rpc/node-replies.js';

/** Core's "Transaction not in mempool" (RPC_INVALID_ADDRESS_OR_KEY). */
const NOT_IN_MEMPOOL = -5;

/** One tx's ancestor and descendant package from the node's `getmempoolentry`. */
export class RpcMempoolPackageSource implements MempoolPackageSource {
  constructor(private readonly node: NodeClient) {}

  async packageOf(txid: string): Promise<MempoolPackage | null> {
    let reply: unknown;
    try {
      reply = await this.node.rpc.call('getmempoolentry', [txid], { exactDecimals: true });
    } catch (error) {
      if (error instanceof RpcError && error.rpcCode === NOT_IN_MEMPOOL) return null;
      throw error;
    }
    const e = parseMempoolEntry(txid, reply as Record<string, unknown>);
    return {
      txid,
      fee: e.modifiedFee,
      vsize: e.vsize,
      ancestorCount: e.ancestorCount,
      ancestorSize: e.ancestorSize,
      ancestorFee: e.ancestorFee,
      descendantCount: e.descendantCount,
      descendantSize: e.descendantSize,
      descendantFee: e.descendantFee,
    };
  }
}
