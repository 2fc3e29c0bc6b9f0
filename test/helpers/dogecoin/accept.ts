/**
 * AcceptToMemoryPool as Dogecoin Core 1.14 runs it for sendrawtransaction (validation.cpp, policy.cpp,
 * dogecoin-fees.cpp), reduced to the rules a payment can meet: CheckTransaction, standardness (hard dust
 * included), finality, mempool conflicts with BIP125 opt-in replacement, missing inputs, coinbase maturity,
 * the relay fee with Dogecoin's soft-dust surcharge, -maxtxfee, the ancestor limit, and P2PKH signatures.
 * Reject codes and reasons are Core's (REJECT_INVALID 16, REJECT_CONFLICT 18, REJECT_NONSTANDARD 64,
 * REJECT_INSUFFICIENTFEE 66, REJECT_HIGHFEE 256). Not modelled: BIP68 sequence locks, P2SH/multisig script
 * evaluation (non-P2PKH spends are refused, saying so), sigop limits, eviction by size.
 */
import type { Transaction } from '../../../src/core/domain/chain-types.js';
import { classifyScript, readScript } from '../../../src/chains/addressing.js';
import { hash160 } from '../../../src/chains/hash.js';
import { isPushOnly } from '../../../src/chains/script/script-reader.js';
import { type ChainState, outpointKey } from './chain-state.js';
import { verifySignature } from './keys.js';
import type { Mempool, PoolEntry } from './mempool.js';
import { LIMITS, MAX_MONEY, REGTEST, feeForSize, isDust, minRelayFee, type Policy } from './regtest-rules.js';
import { SIGHASH_ALL, sighashPreimage } from './sighash.js';

/** A state.Invalid/DoS from ATMP, or missing inputs (which sendrawtransaction reports as -25). */
export class Rejection extends Error {
  constructor(
    readonly rejectCode: number,
    readonly reason: string,
    readonly missingInputs = false,
  ) {
    super(missingInputs ? 'Missing inputs' : `${rejectCode}: ${reason}`);
  }
}

export interface AcceptContext {
  readonly chain: ChainState;
  readonly mempool: Mempool;
  readonly policy: Policy;
  /** Unix seconds. */
  readonly now: () => number;
}

const INVALID = 16;
const CONFLICT = 18;
const NONSTANDARD = 64;
const INSUFFICIENT_FEE = 66;
const HIGH_FEE = 256;
const MAX_BLOCK_BASE_SIZE = 1_000_000;
const SEQUENCE_FINAL = 0xffffffff;

const invalid = (code: number, reason: string): Rejection => new Rejection(code, reason);

/** Checks `tx` and adds it; returns the entry and the txids it replaced (with their descendants). */
export function acceptToMempool(ctx: AcceptContext, tx: Transaction, absurdFee: bigint | null): { entry: PoolEntry; replaced: string[] } {
  const { chain, mempool, policy } = ctx;
  checkTransaction(tx);
  if (tx.isCoinbase) throw invalid(INVALID, 'coinbase');
  if (tx.hasWitness) throw invalid(NONSTANDARD, 'no-witness-yet');
  checkStandard(tx, policy);
  if (!isFinal(tx, chain.tip.height + 1, chain.tip.medianTimePast)) throw invalid(NONSTANDARD, 'non-final');

  const conflicts = mempool.conflictsOf(tx);
  for (const txid of conflicts) {
    const optedOut = mempool.entries.get(txid)!.tx.inputs.every((i) => i.sequence >= SEQUENCE_FINAL - 1);
    if (!policy.replacement || optedOut) throw invalid(CONFLICT, 'txn-mempool-conflict');
  }
  if (tx.outputs.some((_o, vout) => chain.utxos.has(outpointKey(tx.txid, vout)))) throw invalid(CONFLICT, 'txn-already-known');

  const spendHeight = chain.tip.height + 1;
  let valueIn = 0n;
  let inChainValue = 0n;
  let priorityInputs = 0;
  const prevScripts: Uint8Array[] = [];
  for (const input of tx.inputs) {
    const coin = chain.utxos.get(outpointKey(input.prevTxid, input.prevVout));
    const pooled = coin ? null : mempool.output(input.prevTxid, input.prevVout);
    if (!coin && !pooled) throw new Rejection(0, 'missing-inputs', true);
    if (coin?.coinbase && spendHeight - coin.height < REGTEST.coinbaseMaturity) throw invalid(INVALID, 'bad-txns-premature-spend-of-coinbase');
    const value = (coin ?? pooled)!.value;
    valueIn += value;
    if (coin) {
      inChainValue += value;
      priorityInputs += Number(value) * (chain.tip.height - coin.height);
    }
    prevScripts.push((coin ?? pooled)!.script);
  }
  const valueOut = tx.outputs.reduce((s, o) => s + o.value, 0n);
  if (valueIn < valueOut) throw invalid(INVALID, 'bad-txns-in-belowout');
  const fee = valueIn - valueOut;
  if (fee < minRelayFee(policy, tx.outputs, tx.size)) throw invalid(INSUFFICIENT_FEE, 'min relay fee not met');
  if (absurdFee !== null && fee > absurdFee) throw invalid(HIGH_FEE, 'absurdly-high-fee');
  const ancestors = new Set<string>();
  for (const input of tx.inputs) if (mempool.entries.has(input.prevTxid)) for (const a of mempool.ancestors(input.prevTxid)) ancestors.add(a);
  if (ancestors.size + 1 > LIMITS.ancestorCount) throw invalid(NONSTANDARD, 'too-long-mempool-chain');

  const replaced = checkReplacement(ctx, tx, fee, conflicts);
  tx.inputs.forEach((input, i) => verifyInput(tx, i, prevScripts[i]!));

  mempool.remove(replaced);
  const modifiedSize = modifiedSizeOf(tx);
  const entry: PoolEntry = {
    tx, fee, time: ctx.now(), height: chain.tip.height, size: tx.size, startingPriority: priorityInputs / modifiedSize, inChainValue, modifiedSize,
  };
  mempool.add(entry);
  return { entry, replaced };
}

function checkTransaction(tx: Transaction): void {
  if (tx.inputs.length === 0) throw invalid(INVALID, 'bad-txns-vin-empty');
  if (tx.outputs.length === 0) throw invalid(INVALID, 'bad-txns-vout-empty');
  if (tx.size > MAX_BLOCK_BASE_SIZE) throw invalid(INVALID, 'bad-txns-oversize');
  let total = 0n;
  for (const o of tx.outputs) {
    if (o.value < 0n) throw invalid(INVALID, 'bad-txns-vout-negative');
    if (o.value > MAX_MONEY) throw invalid(INVALID, 'bad-txns-vout-toolarge');
    total += o.value;
    if (total > MAX_MONEY) throw invalid(INVALID, 'bad-txns-txouttotal-toolarge');
  }
  const seen = new Set<string>();
  for (const i of tx.inputs) {
    const key = outpointKey(i.prevTxid, i.prevVout);
    if (seen.has(key)) throw invalid(INVALID, 'bad-txns-inputs-duplicate');
    seen.add(key);
  }
  if (!tx.isCoinbase && tx.inputs.some((i) => i.prevTxid === '00'.repeat(32) && i.prevVout === 0xffffffff)) {
    throw invalid(INVALID, 'bad-txns-prevout-null');
  }
}

/** IsStandardTx (policy.cpp); witness outputs are non-standard on Dogecoin, where segwit never activated. */
function checkStandard(tx: Transaction, policy: Policy): void {
  if (tx.version > LIMITS.maxStandardVersion || tx.version < 1) throw invalid(NONSTANDARD, 'version');
  if (tx.weight >= LIMITS.maxStandardTxWeight) throw invalid(NONSTANDARD, 'tx-size');
  for (const input of tx.inputs) {
    if (input.scriptSig.length > LIMITS.maxScriptSigSize) throw invalid(NONSTANDARD, 'scriptsig-size');
    if (!isPushOnly(input.scriptSig)) throw invalid(NONSTANDARD, 'scriptsig-not-pushonly');
  }
  let dataOutputs = 0;
  for (const output of tx.outputs) {
    const type = classifyScript(output.script);
    if (!['pubkey', 'pubkeyhash', 'scripthash', 'multisig', 'nulldata'].includes(type)) throw invalid(NONSTANDARD, 'scriptpubkey');
    if (type === 'nulldata') {
      if (output.script.length > LIMITS.maxDataCarrierBytes) throw invalid(NONSTANDARD, 'scriptpubkey');
      dataOutputs++;
    } else if (isDust(output, policy.hardDustLimit)) {
      throw invalid(NONSTANDARD, 'dust');
    }
  }
  if (dataOutputs > 1) throw invalid(NONSTANDARD, 'multi-op-return');
}

/** IsFinalTx at the next block's height and the tip's median time past (BIP113). */
function isFinal(tx: Transaction, height: number, medianTime: number): boolean {
  if (tx.locktime === 0) return true;
  if (tx.locktime < (tx.locktime < 500_000_000 ? height : medianTime)) return true;
  return tx.inputs.every((i) => i.sequence === SEQUENCE_FINAL);
}

/** BIP125 as 0.14 applies it: at most 100 evictions, a higher feerate than each conflict, and more total fee by the incremental rate. */
function checkReplacement(ctx: AcceptContext, tx: Transaction, fee: bigint, conflicts: Set<string>): string[] {
  if (conflicts.size === 0) return [];
  const evicted = new Set<string>();
  for (const txid of conflicts) for (const d of ctx.mempool.descendants(txid)) evicted.add(d);
  if (evicted.size > 100) throw invalid(INSUFFICIENT_FEE, 'too many potential replacements');
  for (const txid of conflicts) {
    const old = ctx.mempool.entries.get(txid)!;
    if (fee * BigInt(old.size) <= old.fee * BigInt(tx.size)) throw invalid(INSUFFICIENT_FEE, 'insufficient fee');
  }
  let evictedFees = 0n;
  for (const txid of evicted) evictedFees += ctx.mempool.entries.get(txid)!.fee;
  if (fee < evictedFees || fee - evictedFees < feeForSize(ctx.policy.incrementalFeePerKb, tx.size)) throw invalid(INSUFFICIENT_FEE, 'insufficient fee');
  return [...evicted];
}

const SCRIPT_FALSE = 'mandatory-script-verify-flag-failed (Script evaluated without error but finished with a false/empty top stack element)';

/** OP_DUP OP_HASH160 <pkh> OP_EQUALVERIFY OP_CHECKSIG against <sig> <pubkey>; anything else is refused, saying why. */
function verifyInput(tx: Transaction, index: number, prevScript: Uint8Array): void {
  if (classifyScript(prevScript) !== 'pubkeyhash') {
    throw invalid(INVALID, 'mandatory-script-verify-flag-failed (the stand-in evaluates P2PKH spends only)');
  }
  const [first, second, ...rest] = [...readScript(tx.inputs[index]!.scriptSig)];
  if (first?.kind !== 'push' || second?.kind !== 'push' || rest.length > 0) throw invalid(INVALID, SCRIPT_FALSE);
  const sig = first.data;
  const pubkey = second.data;
  if (Buffer.compare(hash160(pubkey), prevScript.subarray(3, 23)) !== 0) {
    throw invalid(INVALID, 'mandatory-script-verify-flag-failed (Script failed an OP_EQUALVERIFY operation)');
  }
  const hashType = sig[sig.length - 1];
  const preimage = sighashPreimage(tx, index, prevScript, hashType);
  if (hashType !== SIGHASH_ALL || !verifySignature(pubkey, sig.subarray(0, -1), preimage)) throw invalid(INVALID, SCRIPT_FALSE);
}

/** CTransaction::CalculateModifiedSize: the priority divisor, discounting each input's fixed part. */
function modifiedSizeOf(tx: Transaction): number {
  let size = tx.size;
  for (const input of tx.inputs) {
    const offset = 41 + Math.min(110, input.scriptSig.length);
    if (size > offset) size -= offset;
  }
  return size;
}
