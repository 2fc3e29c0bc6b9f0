import { hash as oneShotHash } from 'node:crypto';
import { blake3 } from '@noble/hashes/blake3.js';
import type { Transaction, TxInput, TxOutput } from '../../core/chain-types.js';
import { ParseError } from '../../core/errors.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { PEGIN_KERNEL_WEIGHT, readMwebTransaction } from './mweb-tx-body.js';

export interface TxParseOptions {
  /** Accept Litecoin's MWEB serialization flag (0x08): HogEx and mempool-form MWEB txs. */
  readonly mweb?: boolean;
}

/** Sizes a block parser needs besides what Transaction exposes. */
export interface TxSizes {
  /** Bytes of the serialization without witness and without MWEB data (the txid preimage). */
  base: number;
}

const WITNESS_FLAG = 0x01;
const MWEB_FLAG = 0x08;
// prevout 36 + script length 1 + sequence 4; value 8 + script length 1: bound counts by bytes left.
const MIN_INPUT = 41;
const MIN_OUTPUT = 9;
const EMPTY_WITNESS: readonly Uint8Array[] = Object.freeze([]);

/** The mw::Transaction bytes (view) of txs parsed with an MWEB body, so the serializer can round-trip them. */
const mwebBodies = new WeakMap<Transaction, Uint8Array>();

export function mwebBodyOf(tx: Transaction): Uint8Array | undefined {
  return mwebBodies.get(tx);
}

// Segwit/MWEB txids hash a non-contiguous preimage; copying it into one scratch buffer and
// hashing once is cheaper than three update() calls on a streaming hash object.
let scratch = new Uint8Array(1 << 16);

function sha256dHex(data: Uint8Array): string {
  const digest = oneShotHash('sha256', oneShotHash('sha256', data, 'buffer'), 'buffer');
  return digest.reverse().toString('hex');
}

function sha256dJoinedHex(version: Uint8Array, middle: Uint8Array, locktime: Uint8Array, flag: number): string {
  const extra = flag ? 2 : 0;
  const n = 8 + extra + middle.length;
  if (n > scratch.length) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  scratch.set(version, 0);
  if (flag) {
    scratch[4] = 0;
    scratch[5] = flag;
  }
  scratch.set(middle, 4 + extra);
  scratch.set(locktime, 4 + extra + middle.length);
  return sha256dHex(scratch.subarray(0, n));
}

interface MutableInput {
  prevTxid: string;
  prevVout: number;
  scriptSig: Uint8Array;
  sequence: number;
  witness: readonly Uint8Array[];
}

function isNullPrevout(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 32; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Reads one transaction at the reader's position (Core's UnserializeTransaction rules, plus
 * Litecoin's MWEB flag when options.mweb). `sizes` receives the stripped size without allocating.
 */
export function readTransaction(r: ByteReader, options: TxParseOptions = {}, sizes?: TxSizes): Transaction {
  const bytes = r.bytes;
  const start = r.pos;
  const version = r.i32();
  let regionStart = r.pos;
  let flags = 0;
  let flagged = false;
  let nIn = r.count(MIN_INPUT);
  let nOut = 0;
  let inputs: MutableInput[] = [];
  let outputs: TxOutput[] = [];
  let isCoinbase = false;

  if (nIn === 0) {
    // Extended serialization: the empty vin was the marker; a zero flag means an empty tx (as Core).
    const flagAt = r.pos;
    flags = r.u8();
    flagged = true;
    regionStart = r.pos;
    if (flags !== 0) {
      const known = WITNESS_FLAG | (options.mweb ? MWEB_FLAG : 0);
      if ((flags & ~known) !== 0) throw new ParseError(`unknown transaction flag 0x${flags.toString(16)}`, flagAt);
      nIn = r.count(MIN_INPUT);
    } else {
      regionStart = flagAt - 1;
    }
  }

  if (flags !== 0 || !flagged) {
    inputs = new Array<MutableInput>(nIn);
    for (let i = 0; i < nIn; i++) {
      const at = r.need(36);
      const prevTxid = r.hashHex();
      const prevVout = r.u32();
      const scriptSig = r.varBytes();
      const sequence = r.u32();
      inputs[i] = { prevTxid, prevVout, scriptSig, sequence, witness: EMPTY_WITNESS };
      if (nIn === 1 && prevVout === 0xffffffff && isNullPrevout(bytes, at)) isCoinbase = true;
    }
    nOut = r.count(MIN_OUTPUT);
    outputs = new Array<TxOutput>(nOut);
    for (let i = 0; i < nOut; i++) {
      const value = r.i64();
      const script = r.varBytes();
      outputs[i] = { value, script };
    }
  }
  const regionEnd = r.pos;

  const hasWitness = (flags & WITNESS_FLAG) !== 0;
  if (hasWitness) {
    let any = false;
    for (let i = 0; i < nIn; i++) {
      const items = r.count(1);
      if (items === 0) continue;
      any = true;
      const stack = new Array<Uint8Array>(items);
      for (let j = 0; j < items; j++) stack[j] = r.varBytes();
      inputs[i]!.witness = stack;
    }
    if (!any) throw new ParseError('superfluous witness record', regionEnd);
  }
  const witnessEnd = r.pos;

  let isHogEx = false;
  let mwebBody: Uint8Array | null = null;
  let firstKernel: Uint8Array | null = null;
  let mwebWeight = 0;
  if (flags & MWEB_FLAG) {
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
  }
  const locktime = r.u32();
  const end = r.pos;
  const raw = bytes.subarray(start, end);

  const base = 8 + (regionEnd - regionStart);
  const noMwebSize = hasWitness ? base + 2 + (witnessEnd - regionEnd) : base;
  // Litecoin Core: an MWEB-only tx weighs only its peg-outs; others add peg-outs and peg-in kernels to the usual weight.
  const mwebOnly = firstKernel !== null && nIn === 0 && nOut === 0;
  const weight = (mwebOnly ? 0 : base * 3 + noMwebSize) + mwebWeight;
  if (sizes) sizes.base = base;

  const versionBytes = bytes.subarray(start, start + 4);
  const locktimeBytes = bytes.subarray(end - 4, end);
  let txid: string;
  if (!flagged) {
    txid = sha256dHex(raw);
  } else if (firstKernel && nIn === 0 && nOut === 0) {
    // MWEB-only: Litecoin Core's id is the mw::Transaction hash, BLAKE3 of its first kernel (ltcd TxHash).
    txid = Buffer.from(blake3(firstKernel)).reverse().toString('hex');
  } else {
    txid = sha256dJoinedHex(versionBytes, bytes.subarray(regionStart, regionEnd), locktimeBytes, 0);
  }
  let wtxid = txid;
  if (hasWitness) {
    wtxid = flags & MWEB_FLAG
      ? sha256dJoinedHex(versionBytes, bytes.subarray(regionStart, witnessEnd), locktimeBytes, WITNESS_FLAG)
      : sha256dHex(raw);
  }

  const tx: Transaction = {
    txid,
    wtxid,
    version,
    locktime,
    inputs: inputs as TxInput[],
    outputs,
    size: end - start,
    weight,
    vsize: Math.ceil(weight / 4),
    hasWitness,
    isCoinbase,
    isHogEx,
    hasMwebBody: mwebBody !== null,
    raw,
  };
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
