import { ParseError } from '../../core/domain/errors.js';
import type { ByteReader } from '../bytes/byte-reader.js';

// Sizes of Litecoin MWEB (libmw) primitives on the wire.
const HASH = 32;
const COMMITMENT = 33;
const PUBKEY = 33;
const SIGNATURE = 64;
const RANGE_PROOF = 675;
const BLINDING_FACTOR = 32;

// Smallest possible encodings: bound element counts by the bytes left before allocating anything.
const MIN_INPUT = 1 + HASH + COMMITMENT + PUBKEY + SIGNATURE;
const MIN_OUTPUT = COMMITMENT + PUBKEY + PUBKEY + 1 + RANGE_PROOF + SIGNATURE;
const MIN_KERNEL = 1 + COMMITMENT + SIGNATURE;
const MIN_PEGOUT = 1 + 1;

/** What a structural walk over an MWEB tx body learns; the body itself stays confidential/opaque. */
export interface MwebBodyInfo {
  readonly numInputs: number;
  readonly numOutputs: number;
  readonly numKernels: number;
  /** Serialized first kernel (view): BLAKE3 of it is an MWEB-only transaction's id. */
  readonly firstKernel: Uint8Array | null;
  /** Kernels carrying a peg-in amount: Litecoin Core charges each a fixed weight. */
  readonly pegInKernels: number;
  /** Serialized size of every peg-out as a CTxOut (8-byte value + script with its length). */
  readonly pegOutBytes: number;
}

/** Weight Litecoin Core's GetTransactionWeight adds for a tx's MWEB part (consensus/validation.h). */
export const PEGIN_KERNEL_WEIGHT = 164;

function readInput(r: ByteReader): void {
  const features = r.u8();
  r.skip(HASH + COMMITMENT + PUBKEY);
  if (features & 0x01) r.skip(PUBKEY); // stealth input pubkey
  if (features & 0x02) r.varBytes(); // extra data
  r.skip(SIGNATURE);
}

function readOutput(r: ByteReader): void {
  r.skip(COMMITMENT + PUBKEY + PUBKEY);
  const messageFeatures = r.u8();
  if (messageFeatures & 0x01) r.skip(PUBKEY + 1 + 8 + 16); // key exchange pubkey, view tag, masked value, masked nonce
  if (messageFeatures & 0x02) r.varBytes();
  r.skip(RANGE_PROOF + SIGNATURE);
}

function readKernel(r: ByteReader): { pegIn: boolean; pegOutBytes: number } {
  const features = r.u8();
  let pegOutBytes = 0;
  if (features & 0x01) r.varint(); // fee
  if (features & 0x02) r.varint(); // peg-in amount
  if (features & 0x04) {
    const n = r.count(MIN_PEGOUT);
    for (let i = 0; i < n; i++) {
      r.varint(); // amount: a VARINT here, not the 8-byte CTxOut value
      const scriptStart = r.pos;
      r.varBytes();
      pegOutBytes += 8 + (r.pos - scriptStart);
    }
  }
  if (features & 0x08) r.varint(); // lock height
  if (features & 0x10) r.skip(PUBKEY); // stealth excess
  if (features & 0x20) r.varBytes();
  r.skip(COMMITMENT + SIGNATURE);
  return { pegIn: (features & 0x02) !== 0, pegOutBytes };
}

/** Walks an mw::TxBody (inputs, outputs, kernels) so every byte is consumed and bounds-checked. */
export function readMwebTxBody(r: ByteReader): MwebBodyInfo {
  const numInputs = r.count(MIN_INPUT);
  for (let i = 0; i < numInputs; i++) readInput(r);
  const numOutputs = r.count(MIN_OUTPUT);
  for (let i = 0; i < numOutputs; i++) readOutput(r);
  const numKernels = r.count(MIN_KERNEL);
  let firstKernel: Uint8Array | null = null;
  let pegInKernels = 0;
  let pegOutBytes = 0;
  for (let i = 0; i < numKernels; i++) {
    const at = r.pos;
    const kernel = readKernel(r);
    if (kernel.pegIn) pegInKernels++;
    pegOutBytes += kernel.pegOutBytes;
    if (i === 0) firstKernel = r.bytes.subarray(at, r.pos);
  }
  return { numInputs, numOutputs, numKernels, firstKernel, pegInKernels, pegOutBytes };
}

/** mw::Transaction = kernel offset, stealth offset, body; Core requires at least one kernel. */
export function readMwebTransaction(r: ByteReader): MwebBodyInfo {
  const at = r.pos;
  r.skip(BLINDING_FACTOR + BLINDING_FACTOR);
  const info = readMwebTxBody(r);
  if (info.numKernels < 1) throw new ParseError('MWEB transaction without a kernel', at);
  return info;
}
