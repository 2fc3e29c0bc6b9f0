import type { MempoolSnapshot, MempoolSource } from '../core/sources/mempool-source.js';
import type { NodeClient } from './rpc/node-client.js';

/** The node's mempool for block projections: mining fees (after prioritisation), vsize, weight and in-mempool parents. */
export class RpcMempoolSource implements MempoolSource {
  constructor(private readonly node: NodeClient) {}

  async snapshot(): Promise<MempoolSnapshot> {
    const [entries, { info, relayFee }] = await Promise.all([this.node.getRawMempoolVerbose(), this.node.getMempoolPolicy()]);
    // Rates come per 1,000 vbytes; a tx below the larger of the two cannot enter this node's mempool.
    const perKvB = info.mempoolMinFee > relayFee ? info.mempoolMinFee : relayFee;
    return {
      entries: [...entries.values()].map((e) => ({
        txid: e.txid,
        fee: e.modifiedFee,
        vsize: e.vsize,
        // Nodes without segwit (dogecoind) give no weight: four times the size, as consensus counts it.
        weight: e.weight ?? e.vsize * 4,
        size: null,
        depends: e.depends,
        seenAt: e.time,
      })),
      minFeeRate: Number(perKvB) / 1000,
      takenAt: Math.floor(Date.now() / 1000),
    };
  }
}
