/**
 * What the Electrum protocol passes through from the full node as the node says it (protocol-methods.rst: fee
 * estimates, relay fees, verbose transactions, packages), beyond what the index holds. The node driver implements it.
 */

/** A node's answer given to a client as it is (a verbose tx, a package result). */
export type NodeReply = unknown;

export interface ElectrumNodeSource {
  /** `estimatesmartfee target [mode]`: coins per 1,000 vbytes, or -1 when the node has no estimate. */
  estimateFee(target: number, mode: string | null): Promise<number>;
  /** `getnetworkinfo`'s relayfee: coins per 1,000 vbytes. */
  relayFee(): Promise<number>;
  /**
   * `getmempoolinfo`'s mempoolminfee, minrelaytxfee and incrementalrelayfee (coins per 1,000 vbytes), and its
   * unbroadcastcount and fullrbf (Fulcrum passes those on too), those the node has.
   */
  mempoolFees(): Promise<Record<string, number | boolean>>;
  /** `getrawtransaction txid true [blockhash]`: the node's verbose form (the block hash lets a node without -txindex answer). */
  verboseTx(txid: string, blockHash: string | null): Promise<NodeReply>;
  /** `submitpackage`: the node's reply (Bitcoin Core 28+); rejects with RpcError when the node refuses the call. */
  submitPackage(rawTxs: readonly string[]): Promise<NodeReply>;
}
