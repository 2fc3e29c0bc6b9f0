import { blake3 } from '@noble/hashes/blake3.js';
import type { Transaction, TxOutput } from '../../core/domain/chain-types.js';
import { ParseError } from '../../core/domain/errors.js';
import { ByteReader, displayHex, MAX_COMPACT_SIZE } from '../bytes/byte-reader.js';
import { PEGIN_KERNEL_WEIGHT, readMwebTransaction } from './mweb-tx-body.js';
import { ParsedInput, ParsedTransaction, sha256dHex, sha256dJoinedHex, WITNESS_FLAG } from './parsed-tx.js';

export interface TxParseOptions {
  /** Accept Litecoin's MWEB serialization flag (0x08): HogEx and mempool-form MWEB txs. */
  readonly mweb?: boolean;
}

/** Sizes a block parser needs besides what Transaction exposes. */
export interface TxSizes {
  /** Bytes of the serialization without witness and without MWEB data (the txid preimage). */
  base: number;
}

const MWEB_FLAG = 0x08;
// prevout 36 + script length 1 + sequence 4; value 8 + script length 1: bound counts by bytes left.
const MIN_INPUT = 41;
const MIN_OUTPUT = 9;

/** The mw::Transaction bytes (view) of txs parsed with an MWEB body, so the serializer can round-trip them. */
const mwebBodies = new WeakMap<Transaction, Uint8Array>();

export function mwebBodyOf(tx: Transaction): Uint8Array | undefined {
  return mwebBodies.get(tx);
}

/** Inline CompactSize helpers leave the position after a multi-byte CompactSize here. */
let slowPos = 0;

function truncated(at: number, need: number, end: number): never {
  throw new ParseError(`unexpected end of data (need ${need} bytes, have ${Math.max(end - at, 0)})`, at);
}

/** CompactSize whose first byte (at `at`) is 0xfd..0xff, as ByteReader.compactSize; sets slowPos. */
function compactSizeSlow(bytes: Uint8Array, view: DataView, at: number, end: number): number {
  const first = bytes[at]!;
  let value: number;
  if (first === 0xfd) {
    if (end - at < 3) truncated(at + 1, 2, end);
    value = view.getUint16(at + 1, true);
    if (value < 0xfd) throw new ParseError('non-canonical CompactSize', at);
    slowPos = at + 3;
  } else if (first === 0xfe) {
    if (end - at < 5) truncated(at + 1, 4, end);
    value = view.getUint32(at + 1, true);
    if (value < 0x10000) throw new ParseError('non-canonical CompactSize', at);
    slowPos = at + 5;
  } else {
    if (end - at < 9) truncated(at + 1, 8, end);
    if (view.getBigUint64(at + 1, true) < 0x100000000n) throw new ParseError('non-canonical CompactSize', at);
    throw new ParseError('CompactSize too large', at);
  }
  if (value > MAX_COMPACT_SIZE) throw new ParseError(`CompactSize ${value} exceeds ${MAX_COMPACT_SIZE}`, at);
  return value;
}

function isNullPrevout(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 32; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Reads one transaction at the reader's position (Core's UnserializeTransaction rules, plus
 * Litecoin's MWEB flag when options.mweb). `sizes` receives the stripped size without allocating.
 * The hot loops read the bytes directly with a local offset (no reader method calls per field);
 * every read is bounds-checked and malformed input throws ParseError.
 */
export function readTransaction(r: ByteReader, options: TxParseOptions = {}, sizes?: TxSizes): Transaction {
  const bytes = r.bytes;
  const view = r.view;
  const end = r.end;
  const start = r.pos;
  let pos = start;
  if (end - pos < 5) truncated(pos, end - pos < 4 ? 4 : 1, end);
  const version = view.getInt32(pos, true);
  pos += 4;
  let regionStart = pos;
  let flags = 0;
  let flagged = false;
  let countAt = pos;
  let nIn = bytes[pos]!;
  if (nIn < 0xfd) pos++;
  else {
    nIn = compactSizeSlow(bytes, view, pos, end);
    pos = slowPos;
  }
  if (nIn * MIN_INPUT > end - pos) throw new ParseError(`count ${nIn} cannot fit in the ${end - pos} bytes left`, countAt);
  let nOut = 0;
  let inputs: ParsedInput[] = [];
  let outputs: TxOutput[] = [];
  let isCoinbase = false;

  if (nIn === 0) {
    // Extended serialization: the empty vin was the marker; a zero flag means an empty tx (as Core).
    const flagAt = pos;
    if (pos >= end) truncated(pos, 1, end);
    flags = bytes[pos++]!;
    flagged = true;
    regionStart = pos;
    if (flags !== 0) {
      const known = WITNESS_FLAG | (options.mweb ? MWEB_FLAG : 0);
      if ((flags & ~known) !== 0) throw new ParseError(`unknown transaction flag 0x${flags.toString(16)}`, flagAt);
      countAt = pos;
      if (pos >= end) truncated(pos, 1, end);
      nIn = bytes[pos]!;
      if (nIn < 0xfd) pos++;
      else {
        nIn = compactSizeSlow(bytes, view, pos, end);
        pos = slowPos;
      }
      if (nIn * MIN_INPUT > end - pos) throw new ParseError(`count ${nIn} cannot fit in the ${end - pos} bytes left`, countAt);
    } else {
      regionStart = flagAt - 1;
    }
  }

  if (flags !== 0 || !flagged) {
    inputs = new Array<ParsedInput>(nIn);
    for (let i = 0; i < nIn; i++) {
      const at = pos;
      if (end - pos < 37) truncated(pos, end - pos < 36 ? 36 : 37, end);
      const prevTxid = displayHex(bytes, pos);
      const prevVout = view.getUint32(pos + 32, true);
      pos += 36;
      const lenAt = pos;
      let len = bytes[pos]!;
      if (len < 0xfd) pos++;
      else {
        len = compactSizeSlow(bytes, view, pos, end);
        pos = slowPos;
      }
      if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
      const scriptAt = pos;
      pos += len;
      if (end - pos < 4) truncated(pos, 4, end);
      const sequence = view.getUint32(pos, true);
      pos += 4;
      inputs[i] = new ParsedInput(prevTxid, prevVout, sequence, bytes, scriptAt, len);
      if (nIn === 1 && prevVout === 0xffffffff && isNullPrevout(bytes, at)) isCoinbase = true;
    }
    countAt = pos;
    if (pos >= end) truncated(pos, 1, end);
    nOut = bytes[pos]!;
    if (nOut < 0xfd) pos++;
    else {
      nOut = compactSizeSlow(bytes, view, pos, end);
      pos = slowPos;
    }
    if (nOut * MIN_OUTPUT > end - pos) throw new ParseError(`count ${nOut} cannot fit in the ${end - pos} bytes left`, countAt);
    outputs = new Array<TxOutput>(nOut);
    for (let i = 0; i < nOut; i++) {
      if (end - pos < 9) truncated(pos, end - pos < 8 ? 8 : 9, end);
      const value = view.getBigInt64(pos, true);
      pos += 8;
      const lenAt = pos;
      let len = bytes[pos]!;
      if (len < 0xfd) pos++;
      else {
        len = compactSizeSlow(bytes, view, pos, end);
        pos = slowPos;
      }
      if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
      outputs[i] = { value, script: bytes.subarray(pos, pos + len) };
      pos += len;
    }
  }
  const regionEnd = pos;

  const hasWitness = (flags & WITNESS_FLAG) !== 0;
  if (hasWitness) {
    // Validated (every length checked) now, materialised only if someone reads input.witness.
    let any = false;
    for (let i = 0; i < nIn; i++) {
      const at = pos;
      if (pos >= end) truncated(pos, 1, end);
      let items = bytes[pos]!;
      if (items < 0xfd) pos++;
      else {
        items = compactSizeSlow(bytes, view, pos, end);
        pos = slowPos;
      }
      if (items > end - pos) throw new ParseError(`count ${items} cannot fit in the ${end - pos} bytes left`, at);
      if (items === 0) continue;
      any = true;
      for (let j = 0; j < items; j++) {
        const lenAt = pos;
        if (pos >= end) truncated(pos, 1, end);
        let len = bytes[pos]!;
        if (len < 0xfd) pos++;
        else {
          len = compactSizeSlow(bytes, view, pos, end);
          pos = slowPos;
        }
        if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
        pos += len;
      }
      inputs[i]!.setWitnessAt(at);
    }
    if (!any) throw new ParseError('superfluous witness record', regionEnd);
  }
  const witnessEnd = pos;

  let isHogEx = false;
  let mwebBody: Uint8Array | null = null;
  let firstKernel: Uint8Array | null = null;
  let mwebWeight = 0;
  if (flags & MWEB_FLAG) {
    r.pos = pos;
    const at = r.pos;
    const present = r.u8();
    if (present === 0) {
      if (nOut === 0) throw new ParseError('HogEx transaction without outputs', at);
      isHogEx = true;
    } else if (present === 1) {
      const info = readMwebTransaction(r);
      firstKernel = info.firstKernel;
      mwebWeight = info.pegOutBytes * 4 + info.pegInKernels * PEGIN_KERNEL_WEIGHT;
      mwebBody = bytes.subarray(at + 1, r.pos);
    } else {
      throw new ParseError(`bad MWEB presence byte ${present}`, at);
    }
    pos = r.pos;
  }
  if (end - pos < 4) truncated(pos, 4, end);
  const locktime = view.getUint32(pos, true);
  pos += 4;
  r.pos = pos;
  const txEnd = pos;
  const raw = bytes.subarray(start, txEnd);

  const base = 8 + (regionEnd - regionStart);
  const noMwebSize = hasWitness ? base + 2 + (witnessEnd - regionEnd) : base;
  // Litecoin Core: an MWEB-only tx weighs only its peg-outs; others add peg-outs and peg-in kernels to the usual weight.
  const mwebOnly = firstKernel !== null && nIn === 0 && nOut === 0;
  const weight = (mwebOnly ? 0 : base * 3 + noMwebSize) + mwebWeight;
  if (sizes) sizes.base = base;

  let txid: string;
  if (!flagged) {
    txid = sha256dHex(raw);
  } else if (firstKernel && nIn === 0 && nOut === 0) {
    // MWEB-only: Litecoin Core's id is the mw::Transaction hash, BLAKE3 of its first kernel (ltcd TxHash).
    txid = Buffer.from(blake3(firstKernel)).reverse().toString('hex');
  } else {
    txid = sha256dJoinedHex(bytes.subarray(start, start + 4), bytes.subarray(regionStart, regionEnd), bytes.subarray(txEnd - 4, txEnd), 0);
  }
  // Without witness the wtxid is the txid; with it, computed on first access.
  const tx = new ParsedTransaction(
    txid, hasWitness ? null : txid, version, locktime, inputs, outputs, raw, weight, hasWitness, isCoinbase, isHogEx,
    mwebBody !== null, bytes, regionStart, hasWitness && (flags & MWEB_FLAG) ? witnessEnd : -1,
  );
  if (mwebBody) mwebBodies.set(tx, mwebBody);
  return tx;
}

/** Parses exactly one transaction; trailing bytes are an error. */
export function parseTransaction(bytes: Uint8Array, options: TxParseOptions = {}): Transaction {
  const r = new ByteReader(bytes);
  const tx = readTransaction(r, options);
  r.assertEnd('transaction');
  return tx;
}
