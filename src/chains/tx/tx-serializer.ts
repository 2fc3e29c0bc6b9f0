import type { Transaction } from '../../core/domain/chain-types.js';
import { fromDisplayHex } from '../hash.js';
import { ByteWriter } from '../bytes/byte-writer.js';
import { mwebBodyOf } from './tx-parser.js';

export interface TxSerializeOptions {
  /** Include witness data (BIP144 marker/flag). Default true. */
  readonly witness?: boolean;
  /** Include Litecoin MWEB data (flag 0x08, HogEx null byte or mw::Transaction). Default true. */
  readonly mweb?: boolean;
}

/**
 * Serializes a transaction. Defaults give the form it was parsed from, byte for byte;
 * { witness: false, mweb: false } gives the txid preimage. An MWEB body can only be written for a
 * transaction that came from parseTransaction/readTransaction (the body is kept opaque, not modelled).
 */
export function serializeTransaction(tx: Transaction, options: TxSerializeOptions = {}): Uint8Array {
  const withWitness = (options.witness ?? true) && tx.hasWitness;
  const mwebBody = tx.hasMwebBody ? mwebBodyOf(tx) : undefined;
  if (tx.hasMwebBody && (options.mweb ?? true) && !mwebBody) {
    throw new RangeError('MWEB body not available for this transaction');
  }
  const withMweb = (options.mweb ?? true) && (tx.isHogEx || mwebBody !== undefined);
  const w = new ByteWriter(tx.size + 16);
  w.i32(tx.version);
  const flags = (withWitness ? 0x01 : 0) | (withMweb ? 0x08 : 0);
  // As Core: an input-less tx without flags is written plainly, so only "00 00" (no outputs) parses back.
  if (flags !== 0) w.u8(0).u8(flags);
  w.compactSize(tx.inputs.length);
  for (const input of tx.inputs) {
    w.bytes(fromDisplayHex(input.prevTxid)).u32(input.prevVout).varBytes(input.scriptSig).u32(input.sequence);
  }
  w.compactSize(tx.outputs.length);
  for (const output of tx.outputs) w.i64(output.value).varBytes(output.script);
  if (withWitness) {
    for (const input of tx.inputs) {
      w.compactSize(input.witness.length);
      for (const item of input.witness) w.varBytes(item);
    }
  }
  if (withMweb) {
    if (mwebBody) w.u8(1).bytes(mwebBody);
    else w.u8(0);
  }
  w.u32(tx.locktime);
  return w.finish();
}
