/**
 * 1.14's raw-transaction, network, mining and control calls (rpc/rawtransaction.cpp, net.cpp, mining.cpp,
 * server.cpp). The stand-in runs like `-disablewallet`: wallet calls do not exist (-32601), and `generate`,
 * which needs a wallet's coinbase script, fails as it does there.
 */
import type { Transaction } from '../../../src/core/domain/chain-types.js';
import { decodeAddress } from '../../../src/chains/addressing.js';
import { difficultyFromBits, parseTransaction, serializeTransaction } from '../../../src/chains/parsing.js';
import { toHex } from '../../../src/chains/hash.js';
import { Rejection } from './accept.js';
import { outpointKey } from './chain-state.js';
import type { Method, RpcContext } from './rpc-context.js';
import {
  Amount, RpcFailure, RPC_DESERIALIZATION_ERROR, RPC_INTERNAL_ERROR, RPC_INVALID_ADDRESS_OR_KEY, RPC_TRANSACTION_ALREADY_IN_CHAIN,
  RPC_TRANSACTION_ERROR, RPC_TRANSACTION_REJECTED, RPC_TYPE_ERROR,
} from './rpc-values.js';
import { txJson } from './views.js';

/** GetTransaction: mempool, then -txindex, then (deprecated, no txindex) a tx with an unspent output. */
function findTx(ctx: RpcContext, txid: string): { tx: Transaction; blockHash: string | null } | null {
  const { mempool, chain } = ctx.core;
  const pooled = mempool.entries.get(txid);
  if (pooled) return { tx: pooled.tx, blockHash: null };
  let blockHash = ctx.dialect.txindex ? (chain.txBlock.get(txid) ?? null) : null;
  if (!ctx.dialect.txindex && chain.unspentCount.has(txid)) {
    const coin = [...chain.utxos.values()].find((c) => c.txid === txid)!;
    blockHash = chain.active[coin.height]!.hash;
  }
  if (blockHash === null) return null;
  const tx = chain.blocks.get(blockHash)!.block.txs.find((t) => t.txid === txid)!;
  return { tx, blockHash };
}

/** GetNetworkHashPS(120, -1): chain work over the time spanned by the last 120 blocks. */
function networkHashPs(ctx: RpcContext, lookup = 120): number {
  const tip = ctx.core.chain.tip;
  if (tip.height === 0) return 0;
  let first = tip;
  let minTime = tip.block.header.time;
  let maxTime = minTime;
  for (let i = 0; i < Math.min(lookup, tip.height); i++) {
    first = first.parent!;
    minTime = Math.min(minTime, first.block.header.time);
    maxTime = Math.max(maxTime, first.block.header.time);
  }
  return minTime === maxTime ? 0 : Number(tip.chainwork - first.chainwork) / (maxTime - minTime);
}

const VERSION_NAMES: Record<number, string> = { 1140600: '1.14.6', 1140900: '1.14.9' };

export const NODE_METHODS: Readonly<Record<string, Method>> = {
  getrawtransaction: {
    args: ['txid', 'verbose'], arity: [1, 2], usage: 'getrawtransaction "txid" ( verbose )',
    run(p, ctx) {
      const txid = p.hash(0, 'parameter 1');
      let verbose = false;
      if (p.has(1)) {
        const v = p.raw(1);
        if (typeof v === 'number') verbose = v !== 0;
        else if (typeof v === 'boolean') verbose = v;
        else throw new RpcFailure(RPC_TYPE_ERROR, 'Invalid type provided. Verbose parameter must be a boolean.');
      }
      const found = findTx(ctx, txid);
      if (!found) {
        const what = ctx.dialect.txindex ? 'No such mempool or blockchain transaction' : 'No such mempool transaction. Use -txindex to enable blockchain transaction queries';
        throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, `${what}. Use gettransaction for wallet transactions.`);
      }
      const hex = toHex(found.tx.raw);
      if (!verbose) return hex;
      return { hex, ...txJson(ctx.core.params, ctx.core.chain, found.tx, found.blockHash === null ? null : { hash: found.blockHash }) };
    },
  },
  sendrawtransaction: {
    args: ['hexstring', 'allowhighfees'], arity: [1, 2], usage: 'sendrawtransaction "hexstring" ( allowhighfees )',
    run(p, ctx) {
      p.typeCheck(['string', 'bool']);
      let tx: Transaction;
      try {
        tx = parseTransaction(Buffer.from(p.str(0), 'hex'));
        if (toHex(tx.raw) !== p.str(0).toLowerCase()) throw new Error('not hex');
      } catch {
        throw new RpcFailure(RPC_DESERIALIZATION_ERROR, 'TX decode failed');
      }
      // Every tx the stand-in holds must survive our serializer byte for byte (blocks are checked in the miner).
      if (toHex(serializeTransaction(tx)) !== toHex(tx.raw)) throw new Error('stand-in: the tx does not round-trip through our serializer');
      const { core } = ctx;
      const inMempool = core.mempool.entries.has(tx.txid);
      const inChain = tx.outputs.some((_o, vout) => core.chain.utxos.has(outpointKey(tx.txid, vout)));
      if (inChain) throw new RpcFailure(RPC_TRANSACTION_ALREADY_IN_CHAIN, 'transaction already in block chain');
      if (!inMempool) {
        try {
          core.submit(tx, p.has(1) && p.bool(1) ? null : core.options.policy.maxTxFee);
        } catch (err) {
          if (!(err instanceof Rejection)) throw err;
          if (err.missingInputs) throw new RpcFailure(RPC_TRANSACTION_ERROR, 'Missing inputs');
          throw new RpcFailure(RPC_TRANSACTION_REJECTED, `${err.rejectCode}: ${err.reason}`);
        }
      }
      // Already in the mempool: relayed again and answered like a first submission.
      return tx.txid;
    },
  },
  getnetworkinfo: {
    args: [], arity: [0, 0], usage: 'getnetworkinfo',
    run(_p, ctx) {
      const { policy } = ctx.core.options;
      const v = ctx.dialect.version;
      return {
        version: v,
        subversion: `/Shibetoshi:${VERSION_NAMES[v] ?? String(v)}/`,
        protocolversion: 70015,
        localservices: '0000000000000005',
        localrelay: true,
        timeoffset: 0,
        networkactive: true,
        connections: 0,
        networks: ['ipv4', 'ipv6', 'onion'].map((name) => ({ name, limited: false, reachable: true, proxy: '', proxy_randomize_credentials: false })),
        relayfee: new Amount(policy.relayFeePerKb),
        incrementalfee: new Amount(policy.incrementalFeePerKb),
        softdustlimit: new Amount(policy.softDustLimit),
        harddustlimit: new Amount(policy.hardDustLimit),
        localaddresses: [],
        warnings: '',
      };
    },
  },
  getconnectioncount: { args: [], arity: [0, 0], usage: 'getconnectioncount', run: () => 0 },
  getnetworkhashps: {
    args: ['nblocks', 'height'], arity: [0, 2], usage: 'getnetworkhashps ( nblocks height )',
    run: (p, ctx) => networkHashPs(ctx, p.has(0) && p.int(0) > 0 ? p.int(0) : 120),
  },
  getmininginfo: {
    args: [], arity: [0, 0], usage: 'getmininginfo',
    run(_p, ctx) {
      const { chain, mempool, params } = ctx.core;
      return {
        blocks: chain.tip.height, currentblocksize: 0, currentblockweight: 0, currentblocktx: 0,
        difficulty: difficultyFromBits(chain.tip.block.header.bits), errors: '', networkhashps: networkHashPs(ctx), pooledtx: mempool.size, chain: params.chain,
      };
    },
  },
  // No fee estimator data in a stand-in: what 0.14 answers while it has none.
  estimatefee: { args: ['nblocks'], arity: [1, 1], usage: 'estimatefee nblocks', run: (p) => (p.int(0), -1) },
  estimatesmartfee: { args: ['nblocks'], arity: [1, 1], usage: 'estimatesmartfee nblocks', run: (p) => ({ feerate: -1, blocks: p.int(0) }) },
  generate: {
    args: ['nblocks', 'maxtries'], arity: [1, 2], usage: 'generate nblocks ( maxtries )',
    run() {
      throw new RpcFailure(RPC_INTERNAL_ERROR, 'No coinbase script available (mining requires a wallet)');
    },
  },
  generatetoaddress: {
    args: ['nblocks', 'address', 'maxtries'], arity: [2, 3], usage: 'generatetoaddress nblocks address (maxtries)',
    run(p, ctx) {
      const n = p.int(0);
      let script: Uint8Array | null = null;
      try {
        const decoded = decodeAddress(ctx.core.params, p.str(1));
        script = decoded.kind === 'pubkeyhash' || decoded.kind === 'scripthash' ? decoded.script : null;
      } catch {
        script = null;
      }
      if (!script) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'Error: Invalid address');
      const hashes: string[] = [];
      for (let i = 0; i < n; i++) hashes.push(ctx.core.mineOne({ payTo: script }));
      return hashes;
    },
  },
  stop: {
    args: [], arity: [0, 1], usage: 'stop',
    run(_p, ctx) {
      ctx.requestStop();
      return 'Dogecoin server stopping';
    },
  },
};
