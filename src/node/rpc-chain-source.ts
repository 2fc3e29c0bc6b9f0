import { RpcError, type ChainSource, type TxidList } from '../core/index.js';
import type { NodeClient } from './rpc/node-client.js';

/** Core's RPC_INVALID_PARAMETER: "Block height out of range". */
const RPC_INVALID_PARAMETER = -8;

/** The indexer's view of a node (core's ChainSource) over the JSON-RPC NodeClient. */
export class RpcChainSource implements ChainSource {
  constructor(private readonly node: NodeClient) {}

  getBestBlockHash(): Promise<string> {
    return this.node.getBestBlockHash();
  }

  getBlockCount(): Promise<number> {
    return this.node.rpc.call<number>('getblockcount');
  }

  async getBlockHashAt(height: number): Promise<string | null> {
    try {
      return await this.node.getBlockHash(height);
    } catch (err) {
      if (err instanceof RpcError && err.rpcCode === RPC_INVALID_PARAMETER) return null;
      throw err;
    }
  }

  async getBlockHashes(from: number, count: number): Promise<string[]> {
    const calls = Array.from({ length: count }, (_, i) => ({ method: 'getblockhash', params: [from + i] }));
    const replies = await this.node.rpc.batch<string>(calls);
    return replies.map((reply) => {
      if (reply instanceof RpcError) throw reply;
      return reply;
    });
  }

  getRawBlocks(hashes: readonly string[]): Promise<Uint8Array[]> {
    return this.node.getRawBlocks(hashes);
  }

  getRawMempool(): Promise<string[]> {
    return this.node.getRawMempool();
  }

  getMempoolTxidList(): Promise<TxidList> {
    return this.node.getMempoolTxidList();
  }

  getRawTransactions(txids: readonly string[]): Promise<(Uint8Array | null)[]> {
    return this.node.getRawTransactions(txids);
  }
}
