/**
 * Legacy (pre-segwit) signature hashing and P2PKH spending, which is all Dogecoin has: the preimage is the tx
 * with every scriptSig emptied except the signed input's, which carries the spent output's script, then the
 * 4-byte hash type. Also a plain tx builder for unsigned drafts (our serializer does the bytes).
 */
import type { Transaction, TxInput, TxOutput } from '../../../src/core/domain/chain-types.js';
import { ByteWriter, parseTransaction, serializeTransaction } from '../../../src/chains/parsing.js';

export const SIGHASH_ALL = 0x01;

export interface DraftInput {
  readonly txid: string;
  readonly vout: number;
  readonly sequence?: number;
  readonly scriptSig?: Uint8Array;
}

export interface DraftTx {
  readonly version?: number;
  readonly inputs: readonly DraftInput[];
  readonly outputs: readonly TxOutput[];
  readonly locktime?: number;
}

/** A Transaction object good enough for serializeTransaction (ids and sizes come from parsing its bytes). */
function draftToTx(draft: DraftTx): Transaction {
  const inputs: TxInput[] = draft.inputs.map((i) => ({
    prevTxid: i.txid, prevVout: i.vout, scriptSig: i.scriptSig ?? new Uint8Array(), sequence: i.sequence ?? 0xffffffff, witness: [],
  }));
  return {
    txid: '', wtxid: '', version: draft.version ?? 1, locktime: draft.locktime ?? 0, inputs, outputs: draft.outputs,
    size: 0, weight: 0, vsize: 0, hasWitness: false, isCoinbase: false, isHogEx: false, hasMwebBody: false, raw: new Uint8Array(),
  };
}

/** Serializes and parses a draft: the result carries its txid, sizes and raw bytes. */
export function buildTx(draft: DraftTx): Transaction {
  return parseTransaction(serializeTransaction(draftToTx(draft)));
}

/** The SIGHASH_ALL preimage of input `index` spending an output locked by `scriptCode`. */
export function sighashPreimage(tx: Transaction, index: number, scriptCode: Uint8Array, hashType = SIGHASH_ALL): Uint8Array {
  const inputs = tx.inputs.map((input, i) => ({ ...input, scriptSig: i === index ? scriptCode : new Uint8Array(), witness: [] }));
  const body = serializeTransaction({ ...tx, inputs, hasWitness: false }, { witness: false });
  return new ByteWriter(body.length + 4).bytes(body).u32(hashType).finish();
}

/** <sig+hashtype> <pubkey>: a P2PKH scriptSig (both pushes are under 76 bytes: direct pushes). */
export function p2pkhScriptSig(signature: Uint8Array, pubkey: Uint8Array, hashType = SIGHASH_ALL): Uint8Array {
  return new ByteWriter(signature.length + pubkey.length + 3).u8(signature.length + 1).bytes(signature).u8(hashType).u8(pubkey.length).bytes(pubkey).finish();
}
