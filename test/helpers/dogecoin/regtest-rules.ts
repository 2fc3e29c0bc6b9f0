/**
 * Dogecoin Core 1.14 consensus and policy constants the stand-in enforces (chainparams.cpp regtest, validation.h,
 * policy/policy.h, dogecoin-fees.cpp), and the fee/dust arithmetic built on them. Policy values are defaults a
 * stand-in may override, as an operator overrides them with -minrelaytxfee, -dustlimit, -maxtxfee.
 */
import type { ChainFeatures } from '../../../src/chains/network-params.js';
import type { TxOutput } from '../../../src/core/domain/chain-types.js';

export const COIN = 100_000_000n;
/** Dogecoin's MAX_MONEY (amount.h): 10 billion DOGE per amount. */
export const MAX_MONEY = 10_000_000_000n * COIN;
export const DOGE_FEATURES: ChainFeatures = { segwit: false, mweb: false, auxpow: true };

export const REGTEST = {
  coinbaseMaturity: 60,
  auxpowChainId: 0x62,
  /** miner.cpp: "FIXME: Active version bits after the always-auxpow fork!" */
  baseVersion: 4,
  /** Legacy (non-AuxPoW) blocks are valid only below this height. */
  legacyBelowHeight: 20,
  bits: 0x207fffff,
  halvingInterval: 150,
} as const;

/** GetDogecoinBlockSubsidy with fSimplifiedRewards (regtest): 500,000 DOGE halving every 150 blocks, then 10,000. */
export function regtestSubsidy(height: number): bigint {
  if (height >= 6 * REGTEST.halvingInterval) return 10_000n * COIN;
  return (500_000n * COIN) >> BigInt(Math.floor(height / REGTEST.halvingInterval));
}

export interface Policy {
  /** -minrelaytxfee, koinu per 1000 bytes (1.14.6+: 0.001 DOGE/kB). */
  readonly relayFeePerKb: bigint;
  /** -incrementalrelayfee, koinu per 1000 bytes: the extra a replacement pays per byte. */
  readonly incrementalFeePerKb: bigint;
  /** -dustlimit: outputs below it add this much to the required fee (0.01 DOGE). */
  readonly softDustLimit: bigint;
  /** -harddustlimit: outputs below it make the tx non-standard (0.001 DOGE). */
  readonly hardDustLimit: bigint;
  /** -maxtxfee: sendrawtransaction refuses a larger absolute fee unless allowhighfees (400 DOGE). */
  readonly maxTxFee: bigint;
  /** -mempoolreplacement (BIP125 opt-in replacement; default on in 1.14). */
  readonly replacement: boolean;
  /** -maxmempool in MB (what getmempoolinfo reports). */
  readonly maxMempoolMb: number;
}

export const DEFAULT_POLICY: Policy = {
  relayFeePerKb: COIN / 1000n,
  incrementalFeePerKb: COIN / 1000n,
  softDustLimit: COIN / 100n,
  hardDustLimit: COIN / 1000n,
  maxTxFee: 400n * COIN,
  replacement: true,
  maxMempoolMb: 300,
};

export const LIMITS = {
  maxStandardVersion: 2,
  maxStandardTxWeight: 400_000,
  maxScriptSigSize: 1650,
  maxDataCarrierBytes: 83,
  ancestorCount: 25,
} as const;

/** CFeeRate::GetFee: rate * bytes / 1000, at least 1 koinu for a positive rate. */
export function feeForSize(perKb: bigint, bytes: number): bigint {
  const fee = (perKb * BigInt(bytes)) / 1000n;
  return fee === 0n && perKb > 0n && bytes > 0 ? 1n : fee;
}

/** CTxOut::IsDust in Dogecoin: below the given limit (OP_RETURN outputs are never judged). */
export function isDust(output: TxOutput, limit: bigint): boolean {
  return output.value < limit;
}

/** GetDogecoinMinRelayFee: the size-proportional relay fee plus the soft dust limit per output below it. */
export function minRelayFee(policy: Policy, outputs: readonly TxOutput[], bytes: number): bigint {
  const dustOutputs = outputs.filter((o) => o.script[0] !== 0x6a && isDust(o, policy.softDustLimit)).length;
  return feeForSize(policy.relayFeePerKb, bytes) + BigInt(dustOutputs) * policy.softDustLimit;
}
