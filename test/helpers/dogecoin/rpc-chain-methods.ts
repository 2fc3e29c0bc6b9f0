/** 1.14's blockchain and mempool calls (rpc/blockchain.cpp), as the facts file and the sources describe them. */
import { serializeAuxPow, serializeBlockHeader, difficultyFromBits } from '../../../src/chains/parsing.js';
import { toHex } from '../../../src/chains/hash.js';
import { blockByHash, type Method, type RpcContext } from './rpc-context.js';
import { Amount, RpcFailure, RPC_INVALID_ADDRESS_OR_KEY, RPC_INVALID_PARAMETER, uint256S, type Params } from './rpc-values.js';
import { blockJson, headerJson, mempoolEntryJson } from './views.js';

/** 0.14: "verbose" is a bool; 1.14.7 (#3299): a number is the verbosity, anything else must be a bool. */
function getblockVerbosity(params: Params, ctx: RpcContext): number {
  if (!params.has(1)) return 1;
  if (ctx.dialect.getblockBoolOnly) return params.bool(1) ? 1 : 0;
  return typeof params.raw(1) === 'number' ? params.int(1) : params.bool(1) ? 1 : 0;
}

function mempoolInfo(ctx: RpcContext): Record<string, unknown> {
  const { mempool, options } = ctx.core;
  return {
    size: mempool.size,
    bytes: mempool.bytes,
    // DynamicMemoryUsage: not modelled byte for byte; grows with the pool like the real figure.
    usage: mempool.size * 800 + mempool.bytes,
    maxmempool: options.policy.maxMempoolMb * 1_000_000,
    mempoolminfee: new Amount(0n),
  };
}

export const CHAIN_METHODS: Readonly<Record<string, Method>> = {
  getbestblockhash: { args: [], arity: [0, 0], usage: 'getbestblockhash', run: (_p, ctx) => ctx.core.chain.tip.hash },
  getblockcount: { args: [], arity: [0, 0], usage: 'getblockcount', run: (_p, ctx) => ctx.core.chain.tip.height },
  getdifficulty: { args: [], arity: [0, 0], usage: 'getdifficulty', run: (_p, ctx) => difficultyFromBits(ctx.core.chain.tip.block.header.bits) },
  getblockhash: {
    args: ['height'], arity: [1, 1], usage: 'getblockhash height',
    run(p, ctx) {
      const height = p.int(0);
      const entry = ctx.core.chain.active[height];
      if (height < 0 || !entry) throw new RpcFailure(RPC_INVALID_PARAMETER, 'Block height out of range');
      return entry.hash;
    },
  },
  getblock: {
    args: ['blockhash', 'verbosity'], arity: [1, 2], usage: 'getblock "blockhash" ( verbosity )',
    run(p, ctx) {
      const hash = uint256S(p.str(0));
      const verbosity = getblockVerbosity(p, ctx);
      const entry = blockByHash(ctx, hash);
      if (verbosity <= 0) return toHex(entry.block.raw);
      return blockJson(ctx.core.params, ctx.core.chain, entry, verbosity >= 2);
    },
  },
  getblockheader: {
    args: ['blockhash', 'verbose'], arity: [1, 2], usage: 'getblockheader "hash" ( verbose )',
    run(p, ctx) {
      const hash = uint256S(p.str(0));
      const verbose = p.has(1) ? p.bool(1) : true;
      const entry = blockByHash(ctx, hash);
      if (verbose) return headerJson(ctx.core.chain, entry);
      // CBlockHeader serializes its AuxPoW too when the version flags one.
      const { header, auxpow } = entry.block;
      return toHex(serializeBlockHeader(header)) + (auxpow ? toHex(serializeAuxPow(auxpow)) : '');
    },
  },
  getblockchaininfo: {
    args: [], arity: [0, 0], usage: 'getblockchaininfo',
    run(_p, ctx) {
      const { chain, params } = ctx.core;
      const tip = chain.tip;
      let onDisk = 0;
      for (const e of chain.blocks.values()) onDisk += e.block.size;
      const softfork = (id: string, version: number): Record<string, unknown> => ({ id, version, reject: { status: false } });
      const bip9 = { status: 'defined', startTime: 0, timeout: 999999999999, since: 0 };
      return {
        chain: params.chain,
        blocks: tip.height,
        headers: tip.height,
        bestblockhash: tip.hash,
        difficulty: difficultyFromBits(tip.block.header.bits),
        mediantime: tip.medianTimePast,
        // GuessVerificationProgress: regtest has no chainTxData, so the tip counts as fully verified.
        verificationprogress: params.chain === 'regtest' ? 1 : 3e-9,
        ...(ctx.dialect.initialBlockDownloadField ? { initialblockdownload: ctx.core.isInitialBlockDownload() } : {}),
        chainwork: tip.chainwork.toString(16).padStart(64, '0'),
        size_on_disk: onDisk,
        pruned: false,
        softforks: [softfork('bip34', 2), softfork('bip66', 3), softfork('bip65', 4)],
        bip9_softforks: { csv: bip9, segwit: bip9 },
        warnings: '',
      };
    },
  },
  getrawmempool: {
    args: ['verbose'], arity: [0, 1], usage: 'getrawmempool ( verbose )',
    run(p, ctx) {
      const { mempool, chain } = ctx.core;
      if (!(p.has(0) && p.bool(0))) return [...mempool.entries.keys()];
      return Object.fromEntries([...mempool.entries.values()].map((e) => [e.tx.txid, mempoolEntryJson(mempool, chain, e)]));
    },
  },
  getmempoolentry: {
    args: ['txid'], arity: [1, 1], usage: 'getmempoolentry txid',
    run(p, ctx) {
      const entry = ctx.core.mempool.entries.get(p.hash(0, 'parameter 1'));
      if (!entry) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'Transaction not in mempool');
      return mempoolEntryJson(ctx.core.mempool, ctx.core.chain, entry);
    },
  },
  getmempoolinfo: { args: [], arity: [0, 0], usage: 'getmempoolinfo', run: (_p, ctx) => mempoolInfo(ctx) },
  invalidateblock: {
    args: ['blockhash'], arity: [1, 1], usage: 'invalidateblock "blockhash"',
    run(p, ctx) {
      ctx.core.invalidate(blockByHash(ctx, uint256S(p.str(0))));
      return null;
    },
  },
  reconsiderblock: {
    args: ['blockhash'], arity: [1, 1], usage: 'reconsiderblock "blockhash"',
    run(p, ctx) {
      ctx.core.reconsider(blockByHash(ctx, uint256S(p.str(0))));
      return null;
    },
  },
};
