/**
 * The output types of the synthetic chain and what spending each looks like. Every address id owns one script of one
 * kind (chosen from the id, so it never changes); its hash, pubkeys and signatures are deterministic filler of the
 * right sizes and framing (DER signatures, 02/03 pubkeys): the indexer reads scripts, it never verifies signatures.
 */
import type { ByteSink } from './byte-sink.js';
import { fmix32, type Prng } from './prng.js';

export const P2PKH = 0;
export const P2WPKH = 1;
export const P2SH_P2WPKH = 2;
export const P2SH_MULTISIG = 3;
export const P2WSH_MULTISIG = 4;
export const P2TR = 5;
export const P2PK = 6;
export const BARE_MULTISIG = 7;

export const KIND_NAMES = ['p2pkh', 'p2wpkh', 'p2sh-p2wpkh', 'p2sh-multisig-2of3', 'p2wsh-multisig-2of3', 'p2tr', 'p2pk', 'bare-multisig-1of3'] as const;

/**
 * Share of addresses per kind, roughly Bitcoin's whole history of outputs: P2PKH and P2WPKH lead, wrapped segwit and
 * P2SH multisig behind, taproot rising, a few old P2PK and Counterparty-style bare multisig outputs.
 */
const KIND_WEIGHTS = [0.33, 0.33, 0.14, 0.03, 0.045, 0.11, 0.01, 0.005];
const KIND_CUMULATIVE = KIND_WEIGHTS.map((_, i) => KIND_WEIGHTS.slice(0, i + 1).reduce((a, b) => a + b, 0));

/** The kind of an address id (a fixed function of the id). */
export function kindOf(addrId: number): number {
  const u = fmix32(addrId ^ 0x5bd1e995) / 4294967296;
  for (let k = 0; k < KIND_CUMULATIVE.length - 1; k++) if (u < KIND_CUMULATIVE[k]!) return k;
  return KIND_CUMULATIVE.length - 1;
}

/** Inputs of this kind carry witness data (the tx is written in the segwit serialization). */
export function spendsWithWitness(kind: number): boolean {
  return kind === P2WPKH || kind === P2SH_P2WPKH || kind === P2WSH_MULTISIG || kind === P2TR;
}

/** Virtual bytes of one input of this kind (fee estimate). */
export const INPUT_VBYTES = [148, 68, 91, 297, 104, 58, 114, 114];
/** Serialized size of an output of this kind: value, script length, script. */
export const OUTPUT_BYTES = [34, 31, 32, 32, 43, 43, 44, 114];
/** Upper bound of the bytes one input of any kind writes (scriptSig + witness + outpoint and sequence). */
export const MAX_INPUT_BYTES = 420;
export const MAX_OUTPUT_BYTES = 120;

/** Writes `len` bytes derived from (id, salt): the first word is a bijection of the id, so distinct ids differ. */
function fillFromId(sink: ByteSink, id: number, salt: number, len: number): void {
  const b = sink.buf;
  let p = sink.pos;
  let w = fmix32(id ^ salt);
  for (let i = 0; i < len; i += 4) {
    b[p++] = w & 0xff;
    if (i + 1 < len) b[p++] = (w >>> 8) & 0xff;
    if (i + 2 < len) b[p++] = (w >>> 16) & 0xff;
    if (i + 3 < len) b[p++] = w >>> 24;
    w = fmix32(w + 0x9e3779b9 + i);
  }
  sink.pos = p;
}

function pubkey(sink: ByteSink, id: number, salt: number): void {
  sink.u8(0x02 | (fmix32(id ^ salt ^ 0x1234567) & 1));
  fillFromId(sink, id, salt, 32);
}

/** 1-of-3 / 2-of-3 multisig body: OP_m <pk> <pk> <pk> OP_3 OP_CHECKMULTISIG (105 bytes). */
function multisigScript(sink: ByteSink, id: number, m: number): void {
  sink.u8(0x50 + m);
  for (let k = 0; k < 3; k++) {
    sink.u8(0x21);
    pubkey(sink, id, 0x3c6ef372 + k);
  }
  sink.u8(0x53);
  sink.u8(0xae);
}

/** The output script of an address, with its length prefix. */
export function writeOutputScript(sink: ByteSink, addrId: number): void {
  switch (kindOf(addrId)) {
    case P2PKH:
      sink.u8x2(25, 0x76);
      sink.u8x2(0xa9, 0x14);
      fillFromId(sink, addrId, 0x6a09e667, 20);
      sink.u8x2(0x88, 0xac);
      return;
    case P2WPKH:
      sink.u8x3(22, 0x00, 0x14);
      fillFromId(sink, addrId, 0x6a09e667, 20);
      return;
    case P2SH_P2WPKH:
    case P2SH_MULTISIG:
      sink.u8x3(23, 0xa9, 0x14);
      fillFromId(sink, addrId, 0x6a09e667, 20);
      sink.u8(0x87);
      return;
    case P2WSH_MULTISIG:
      sink.u8x3(34, 0x00, 0x20);
      fillFromId(sink, addrId, 0x6a09e667, 32);
      return;
    case P2TR:
      sink.u8x3(34, 0x51, 0x20);
      fillFromId(sink, addrId, 0x6a09e667, 32);
      return;
    case P2PK:
      sink.u8x2(35, 0x21);
      pubkey(sink, addrId, 0xbb67ae85);
      sink.u8(0xac);
      return;
    default:
      sink.u8(105);
      multisigScript(sink, addrId, 1);
  }
}

/** Random bytes that signatures are cut from (copying beats drawing 64 fresh bytes per signature). */
export class SignatureNoise {
  private readonly pool: Uint8Array;

  constructor(prng: Prng) {
    this.pool = new Uint8Array(1 << 16);
    for (let i = 0; i < this.pool.length; i++) this.pool[i] = prng.u32() & 0xff;
  }

  private noise(sink: ByteSink, prng: Prng, len: number): void {
    const at = prng.below(this.pool.length - len);
    sink.buf.set(this.pool.subarray(at, at + len), sink.pos);
    sink.pos += len;
  }

  /** A pushed DER ECDSA signature + SIGHASH_ALL: 71 bytes, a quarter of them 72 (high r, padded). */
  pushedSignature(sink: ByteSink, prng: Prng): void {
    const long = (prng.u32() & 3) === 0;
    sink.u8(long ? 72 : 71);
    this.derSignature(sink, prng, long);
  }

  /** A witness item holding a DER signature (length prefix included). */
  witnessSignature(sink: ByteSink, prng: Prng): void {
    this.pushedSignature(sink, prng);
  }

  private derSignature(sink: ByteSink, prng: Prng, long: boolean): void {
    sink.u8x3(0x30, long ? 0x45 : 0x44, 0x02);
    if (long) {
      sink.u8x2(0x21, 0x00);
      const at = sink.pos;
      this.noise(sink, prng, 32);
      sink.buf[at] = sink.buf[at]! | 0x80;
    } else {
      sink.u8(0x20);
      const at = sink.pos;
      this.noise(sink, prng, 32);
      sink.buf[at] = sink.buf[at]! & 0x7f;
    }
    sink.u8x2(0x02, 0x20);
    const s = sink.pos;
    this.noise(sink, prng, 32);
    sink.buf[s] = sink.buf[s]! & 0x7f;
    sink.u8(0x01);
  }

  /** A 64-byte Schnorr signature witness item (key-path taproot spend, SIGHASH_DEFAULT). */
  schnorr(sink: ByteSink, prng: Prng): void {
    sink.u8(64);
    this.noise(sink, prng, 64);
  }
}

/** The scriptSig (with its length prefix) that spends an output of this address. */
export function writeScriptSig(sink: ByteSink, addrId: number, noise: SignatureNoise, prng: Prng): void {
  const lengthAt = sink.pos;
  sink.u8(0); // patched below
  switch (kindOf(addrId)) {
    case P2PKH:
      noise.pushedSignature(sink, prng);
      sink.u8(0x21);
      pubkey(sink, addrId, 0xbb67ae85);
      break;
    case P2SH_P2WPKH:
      sink.u8x3(0x16, 0x00, 0x14);
      fillFromId(sink, addrId, 0x510e527f, 20);
      break;
    case P2SH_MULTISIG:
      sink.u8(0x00);
      noise.pushedSignature(sink, prng);
      noise.pushedSignature(sink, prng);
      sink.u8x2(0x4c, 105);
      multisigScript(sink, addrId, 2);
      break;
    case P2PK:
      noise.pushedSignature(sink, prng);
      break;
    case BARE_MULTISIG:
      sink.u8(0x00);
      noise.pushedSignature(sink, prng);
      break;
    default:
      break; // native segwit: empty scriptSig
  }
  const len = sink.pos - lengthAt - 1;
  if (len < 0xfd) {
    sink.buf[lengthAt] = len;
    return;
  }
  // A 2-of-3 P2SH spend with two 72-byte signatures is 254 bytes: a 3-byte CompactSize.
  sink.buf.copyWithin(lengthAt + 3, lengthAt + 1, sink.pos);
  sink.pos += 2;
  sink.buf[lengthAt] = 0xfd;
  sink.buf[lengthAt + 1] = len & 0xff;
  sink.buf[lengthAt + 2] = len >>> 8;
}

/** The witness stack (item count, then items) that spends an output of this address; "00" for non-witness kinds. */
export function writeWitness(sink: ByteSink, addrId: number, noise: SignatureNoise, prng: Prng): void {
  switch (kindOf(addrId)) {
    case P2WPKH:
    case P2SH_P2WPKH:
      sink.u8(2);
      noise.witnessSignature(sink, prng);
      sink.u8(0x21);
      pubkey(sink, addrId, 0xbb67ae85);
      return;
    case P2WSH_MULTISIG:
      sink.u8(4);
      sink.u8(0);
      noise.witnessSignature(sink, prng);
      noise.witnessSignature(sink, prng);
      sink.u8(105);
      multisigScript(sink, addrId, 2);
      return;
    case P2TR:
      sink.u8(1);
      noise.schnorr(sink, prng);
      return;
    default:
      sink.u8(0);
  }
}
