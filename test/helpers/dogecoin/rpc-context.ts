/** The pieces every stand-in RPC method sees, and how a method is declared. */
import type { DogecoinCore } from './dogecoin-core.js';
import type { BlockEntry } from './chain-state.js';
import { RpcFailure, RPC_INVALID_ADDRESS_OR_KEY, RPC_MISC_ERROR, type Params } from './rpc-values.js';

/** Which 1.14 build the stand-in imitates, where builds differ (see docs/node.md, "Dogecoin Core 1.14"). */
export interface Dialect {
  /** 1140600 for 1.14.6, 1140900 for 1.14.9: getnetworkinfo's `version`. */
  readonly version: number;
  /** Before 1.14.7 `getblock`'s second parameter is a bool only (0.14's get_bool); an integer fails with -1. */
  readonly getblockBoolOnly: boolean;
  /** `initialblockdownload` in getblockchaininfo (1.14.7+ sources; older builds may lack it). */
  readonly initialBlockDownloadField: boolean;
  /** -txindex: getrawtransaction finds any confirmed tx, not only mempool txs and those with unspent outputs. */
  readonly txindex: boolean;
}

export interface RpcContext {
  readonly core: DogecoinCore;
  readonly dialect: Dialect;
  /** The `stop` RPC: the server answers, then shuts down. */
  requestStop(): void;
}

export interface Method {
  /** Parameter names, for named-parameter calls (transformNamedArguments). */
  readonly args: readonly string[];
  /** Accepted parameter counts; outside them Core throws its help text as a runtime_error (-1). */
  readonly arity: readonly [number, number];
  /** The first line of Core's help, what the -1 message starts with. */
  readonly usage: string;
  run(params: Params, ctx: RpcContext): unknown;
}

export function checkArity(name: string, method: Method, params: Params): void {
  const [min, max] = method.arity;
  if (params.size < min || params.size > max) throw new RpcFailure(RPC_MISC_ERROR, `${method.usage}\n(the stand-in prints the usage line of ${name}'s help only)`);
}

export function blockByHash(ctx: RpcContext, hash: string): BlockEntry {
  const entry = ctx.core.chain.blocks.get(hash);
  if (!entry) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'Block not found');
  return entry;
}
