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

function truncated(at: number, need: number, end: number): never {
  throw new ParseError(`unexpected end of data (need ${need} bytes, have ${Math.max(end - at, 0)})`, at);
}

/** CompactSize whose first byte (at `at`) is 0xfd..0xff, as ByteReader.compactSize. */
function compactSizeSlow(bytes: Uint8Array, view: DataView, at: number, end: number): number {
  const first = bytes[at]!;
  let value: number;
  if (first === 0xfd) {
    if (end - at < 3) truncated(at + 1, 2, end);
    value = view.getUint16(at + 1, true);
    if (value < 0xfd) throw new ParseError('non-canonical CompactSize', at);
  } else if (first === 0xfe) {
    if (end - at < 5) truncated(at + 1, 4, end);
    value = view.getUint32(at + 1, true);
    if (value < 0x10000) throw new ParseError('non-canonical CompactSize', at);
  } else {
    if (end - at < 9) truncated(at + 1, 8, end);
    if (view.getBigUint64(at + 1, true) < 0x100000000n) throw new ParseError('non-canonical CompactSize', at);
    throw new ParseError('CompactSize too large', at);
  }
  if (value > MAX_COMPACT_SIZE) throw new ParseError(`CompactSize ${value} exceeds ${MAX_COMPACT_SIZE}`, at);
  return value;
}

/** The CompactSize at `at`, bounds-checked; the one-byte form (nearly all) without a call. */
function compactSizeAt(bytes: Uint8Array, view: DataView, at: number, end: number): number {
  if (at >= end) truncated(at, 1, end);
  const first = bytes[at]!;
  return first < 0xfd ? first : compactSizeSlow(bytes, view, at, end);
}

/** How many bytes the CompactSize of `value` took: only canonical encodings pass compactSizeSlow. */
function compactSizeWidth(value: number): number {
  return value < 0xfd ? 1 : value < 0x10000 ? 3 : 5;
}

function isNullPrevout(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 32; i++) if (bytes[i] !== 0) return false;
  return true;
}

const NO_INPUTS: ParsedInput[] = [];
const NO_OUTPUTS: TxOutput[] = [];

/**
 * One transaction being read (Core's UnserializeTransaction, plus Litecoin's MWEB flag): the bytes, the offset of the
 * next field, and what each step found. Each step copies the offset to a local for its loop (the hot loops read
 * the bytes directly: no reader method call per field) and stores it back; every read is bounds-checked and
 * malformed input throws ParseError.
 */
class TxScan {
  pos: number;
  version = 0;
  /** The extended serialization's flags (0: none, or Core's empty tx). */
  flags = 0;
  /** The tx used the extended serialization (marker and flag bytes). */
  flagged = false;
  /** The txid preimage's middle: from the input count to the end of the outputs. */
  regionStart: number;
  regionEnd = 0;
  /** The end of the witness data (the wtxid preimage of an MWEB-flagged witness tx stops there). */
  witnessEnd = 0;
  inputs = NO_INPUTS;
  outputs = NO_OUTPUTS;
  isCoinbase = false;
  private nIn = 0;

  constructor(readonly bytes: Uint8Array, readonly view: DataView, readonly end: number, readonly start: number) {
    this.pos = start;
    this.regionStart = start;
  }

  /** A count of items at least `minItem` bytes each: bounded by the bytes left before anything is allocated. */
  private count(minItem: number): number {
    const at = this.pos;
    const n = compactSizeAt(this.bytes, this.view, at, this.end);
    this.pos = at + compactSizeWidth(n);
    if (n * minItem > this.end - this.pos) throw new ParseError(`count ${n} cannot fit in the ${this.end - this.pos} bytes left`, at);
    return n;
  }

  /** Version, then the input count; an empty vin is the extended serialization's marker, followed by its flags. */
  header(mweb: boolean): void {
    const { bytes, end } = this;
    if (end - this.pos < 5) truncated(this.pos, end - this.pos < 4 ? 4 : 1, end);
    this.version = this.view.getInt32(this.pos, true);
    this.regionStart = this.pos += 4;
    this.nIn = this.count(MIN_INPUT);
    if (this.nIn !== 0) return;
    // A zero flag means an empty tx (as Core): no inputs, no outputs.
    const flagAt = this.pos;
    if (flagAt >= end) truncated(flagAt, 1, end);
    this.flags = bytes[this.pos++]!;
    this.flagged = true;
    if (this.flags === 0) return;
    const known = WITNESS_FLAG | (mweb ? MWEB_FLAG : 0);
    if ((this.flags & ~known) !== 0) throw new ParseError(`unknown transaction flag 0x${this.flags.toString(16)}`, flagAt);
    this.regionStart = this.pos;
    this.nIn = this.count(MIN_INPUT);
  }

  /** Inputs and outputs (none in Core's empty extended tx); the end of the txid region. */
  body(): void {
    if (this.flags !== 0 || !this.flagged) {
      this.readInputs();
      this.readOutputs();
    }
    this.regionEnd = this.pos;
  }

  private readInputs(): void {
    const { bytes, view, end, nIn } = this;
    let pos = this.pos;
    const inputs = new Array<ParsedInput>(nIn);
    for (let i = 0; i < nIn; i++) {
      const at = pos;
      if (end - pos < 37) truncated(pos, end - pos < 36 ? 36 : 37, end);
      const prevTxid = displayHex(bytes, pos);
      const prevVout = view.getUint32(pos + 32, true);
      pos += 36;
      const lenAt = pos;
      const len = compactSizeAt(bytes, view, pos, end);
      pos += compactSizeWidth(len);
      if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
      const scriptAt = pos;
      pos += len;
      if (end - pos < 4) truncated(pos, 4, end);
      const sequence = view.getUint32(pos, true);
      pos += 4;
      inputs[i] = new ParsedInput(prevTxid, prevVout, sequence, bytes, scriptAt, len);
      if (nIn === 1 && prevVout === 0xffffffff && isNullPrevout(bytes, at)) this.isCoinbase = true;
    }
    this.inputs = inputs;
    this.pos = pos;
  }

  private readOutputs(): void {
    const { bytes, view, end } = this;
    const nOut = this.count(MIN_OUTPUT);
    let pos = this.pos;
    const outputs = new Array<TxOutput>(nOut);
    for (let i = 0; i < nOut; i++) {
      if (end - pos < 9) truncated(pos, end - pos < 8 ? 8 : 9, end);
      const value = view.getBigInt64(pos, true);
      pos += 8;
      const lenAt = pos;
      const len = compactSizeAt(bytes, view, pos, end);
      pos += compactSizeWidth(len);
      if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
      outputs[i] = { value, script: bytes.subarray(pos, pos + len) };
      pos += len;
    }
    this.outputs = outputs;
    this.pos = pos;
  }

  /** Validates every witness stack (each length checked); they are materialised only if someone reads input.witness. */
  witnesses(): void {
    const { bytes, view, end, inputs } = this;
    let pos = this.pos;
    let any = false;
    for (let i = 0; i < inputs.length; i++) {
      const at = pos;
      const items = compactSizeAt(bytes, view, pos, end);
      pos += compactSizeWidth(items);
      if (items > end - pos) throw new ParseError(`count ${items} cannot fit in the ${end - pos} bytes left`, at);
      if (items === 0) continue;
      any = true;
      for (let j = 0; j < items; j++) {
        const lenAt = pos;
        const len = compactSizeAt(bytes, view, pos, end);
        pos += compactSizeWidth(len);
        if (len > end - pos) throw new ParseError(`length ${len} runs past the end of data`, lenAt);
        pos += len;
      }
      inputs[i]!.setWitnessAt(at);
    }
    if (!any) throw new ParseError('superfluous witness record', this.regionEnd);
    this.pos = pos;
  }

  locktime(): number {
    if (this.end - this.pos < 4) truncated(this.pos, 4, this.end);
    const locktime = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return locktime;
  }
}

/** What the MWEB part of an MWEB-flagged tx says. */
interface MwebPart {
  readonly isHogEx: boolean;
  /** The mw::Transaction bytes (view), for the serializer; null for HogEx. */
  readonly body: Uint8Array | null;
  readonly firstKernel: Uint8Array | null;
  /** Weight Litecoin Core adds for it: peg-outs and peg-in kernels. */
  readonly weight: number;
}

const NO_MWEB: MwebPart = { isHogEx: false, body: null, firstKernel: null, weight: 0 };

/** The MWEB presence byte and what follows it (HogEx: nothing; otherwise an mw::Transaction). */
function readMwebPart(r: ByteReader, scan: TxScan): MwebPart {
  r.pos = scan.pos;
  const at = r.pos;
  const present = r.u8();
  let part: MwebPart;
  if (present === 0) {
    if (scan.outputs.length === 0) throw new ParseError('HogEx transaction without outputs', at);
    part = { ...NO_MWEB, isHogEx: true };
  } else if (present === 1) {
    const info = readMwebTransaction(r);
    part = { isHogEx: false, body: scan.bytes.subarray(at + 1, r.pos), firstKernel: info.firstKernel, weight: info.pegOutBytes * 4 + info.pegInKernels * PEGIN_KERNEL_WEIGHT };
  } else {
    throw new ParseError(`bad MWEB presence byte ${present}`, at);
  }
  scan.pos = r.pos;
  return part;
}

/**
 * The txid: sha256d of the raw bytes for a legacy tx; of version, inputs, outputs and locktime for an extended one;
 * for an MWEB-only tx Litecoin Core's id of the mw::Transaction, BLAKE3 of its first kernel (ltcd TxHash).
 */
function txidOf(scan: TxScan, raw: Uint8Array, mweb: MwebPart): string {
  if (!scan.flagged) return sha256dHex(raw);
  if (mweb.firstKernel && scan.inputs.length === 0 && scan.outputs.length === 0) return Buffer.from(blake3(mweb.firstKernel)).reverse().toString('hex');
  const { bytes, start } = scan;
  return sha256dJoinedHex(bytes.subarray(start, start + 4), bytes.subarray(scan.regionStart, scan.regionEnd), raw.subarray(raw.length - 4), 0);
}

/**
 * Reads one transaction at the reader's position (Core's UnserializeTransaction rules, plus Litecoin's MWEB flag when
 * options.mweb). `sizes` receives the stripped size without allocating.
 */
export function readTransaction(r: ByteReader, options: TxParseOptions = {}, sizes?: TxSizes): Transaction {
  const scan = new TxScan(r.bytes, r.view, r.end, r.pos);
  scan.header(options.mweb === true);
  scan.body();
  const hasWitness = (scan.flags & WITNESS_FLAG) !== 0;
  if (hasWitness) scan.witnesses();
  scan.witnessEnd = scan.pos;
  const mweb = scan.flags & MWEB_FLAG ? readMwebPart(r, scan) : NO_MWEB;
  const locktime = scan.locktime();
  r.pos = scan.pos;
  const raw = scan.bytes.subarray(scan.start, scan.pos);

  const base = 8 + (scan.regionEnd - scan.regionStart);
  if (sizes) sizes.base = base;
  const noMwebSize = hasWitness ? base + 2 + (scan.witnessEnd - scan.regionEnd) : base;
  // Litecoin Core: an MWEB-only tx weighs only its peg-outs; others add peg-outs and peg-in kernels to the usual weight.
  const mwebOnly = mweb.firstKernel !== null && scan.inputs.length === 0 && scan.outputs.length === 0;
  const weight = (mwebOnly ? 0 : base * 3 + noMwebSize) + mweb.weight;
  const txid = txidOf(scan, raw, mweb);
  const tx = new ParsedTransaction({
    txid,
    // Without witness the wtxid is the txid; with it, computed on first access.
    wtxid: hasWitness ? null : txid,
    version: scan.version, locktime, inputs: scan.inputs, outputs: scan.outputs, raw, weight,
    hasWitness, isCoinbase: scan.isCoinbase, isHogEx: mweb.isHogEx, hasMwebBody: mweb.body !== null,
    bytes: scan.bytes, regionStart: scan.regionStart, witnessEnd: hasWitness && (scan.flags & MWEB_FLAG) ? scan.witnessEnd : -1,
  });
  if (mweb.body) mwebBodies.set(tx, mweb.body);
  return tx;
}

/** Parses exactly one transaction; trailing bytes are an error. */
export function parseTransaction(bytes: Uint8Array, options: TxParseOptions = {}): Transaction {
  const r = new ByteReader(bytes);
  const tx = readTransaction(r, options);
  r.assertEnd('transaction');
  return tx;
}
