import type { FeeEstimateSource, NodeFeeEstimate, NodeFeeEstimates } from '../core/sources/fee-source.js';
import { RpcError } from '../core/domain/errors.js';
import type { NodeClient } from './rpc/node-client.js';
import { coins, parseNetworkInfo } from './rpc/node-replies.js';

/**
 * The node's fee estimates in one batched request: `getnetworkinfo` (version, relay fee) and `estimatesmartfee N` per
 * target with the target as its only argument, the signature every supported node has (Dogecoin Core 1.14 keeps
 * Bitcoin Core 0.14's: no estimate mode, `feerate` -1 when it has no estimate; newer nodes leave `feerate` out and
 * say why in `errors`). Rates come per 1,000 virtual bytes and are returned per virtual byte.
 */
export class RpcFeeSource implements FeeEstimateSource {
  constructor(private readonly node: NodeClient) {}

  async estimates(targets: readonly number[]): Promise<NodeFeeEstimates> {
    const replies = await this.node.rpc.batch<unknown>(
      [{ method: 'getnetworkinfo' }, ...targets.map((target) => ({ method: 'estimatesmartfee', params: [target] }))],
      { exactDecimals: true },
    );
    const [info, ...answers] = replies;
    if (info instanceof RpcError) throw info;
    const network = parseNetworkInfo(info);
    return {
      nodeVersion: network.version,
      relayFeeRate: Number(network.relayFee) / 1000,
      estimates: targets.map((target, i) => estimateOf(target, answers[i])),
    };
  }
}

function estimateOf(target: number, reply: unknown): NodeFeeEstimate {
  // A node that refuses one target (out of its range) still answers the others.
  if (reply instanceof RpcError || reply === null || typeof reply !== 'object') return { target, rate: null, answeredFor: null };
  const r = reply as { feerate?: unknown; blocks?: unknown };
  const answeredFor = typeof r.blocks === 'number' ? r.blocks : null;
  if (r.feerate === undefined || (typeof r.feerate === 'number' && r.feerate < 0)) return { target, rate: null, answeredFor };
  return { target, rate: Number(coins(r.feerate)) / 1000, answeredFor };
}
