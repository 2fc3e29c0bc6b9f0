/**
 * Byte encodings shared by both drivers. Hashes are stored as the 32 bytes of their display hex
 * (so a stored txid compares and sorts the way it prints), half the size of hex text.
 */
import { StoreError } from '../../../core/domain/errors.js';

export function hexToBytes(hex: string): Buffer {
  // Buffer.from stops at the first non-hex character, so the length check also rejects malformed input.
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length !== 32 || hex.length !== 64) throw new StoreError(`not a 32-byte hex hash: ${hex}`);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Copies a parser view so the stored row never aliases the (reusable) parse buffer. */
export function copyBytes(view: Uint8Array): Buffer {
  return Buffer.from(view);
}

/**
 * A Buffer over the same bytes, no copy: for rows written within the call that built them (the drivers
 * copy bound values into the database before returning).
 */
export function viewBytes(view: Uint8Array): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

export function unpackTxids(blob: Uint8Array): string[] {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const txids: string[] = [];
  for (let off = 0; off + 32 <= buf.length; off += 32) txids.push(buf.toString('hex', off, off + 32));
  return txids;
}

/** What one input spent: kept per tx so display needs no joins and disconnect needs no separate undo table. */
export interface StoredPrevout {
  readonly txid: string;
  readonly vout: number;
  readonly value: bigint;
  readonly scriptId: number;
}

export const PREVOUT_BYTES = 52; // txid 32 + vout 4 + value 8 + script id 8

/**
 * null entries (coinbase inputs) are written as all zeros. A script key may be 0 (keys are hashes), so "none" is the
 * all-zero txid with key 0: no real output has the all-zero txid (it is the coinbase input's null prevout).
 */
export function packPrevouts(prevouts: readonly (StoredPrevout | null)[]): Buffer {
  const out = Buffer.alloc(prevouts.length * PREVOUT_BYTES);
  prevouts.forEach((p, i) => {
    if (!p) return;
    const off = i * PREVOUT_BYTES;
    out.write(p.txid, off, 32, 'hex');
    out.writeUInt32BE(p.vout, off + 32);
    out.writeBigUInt64BE(p.value, off + 36);
    out.writeBigUInt64BE(BigInt(p.scriptId), off + 44);
  });
  return out;
}

// A BigUint64Array store takes a bigint's low 64 bits without the generic DataView#setBigUint64 builtin (not
// inlined): one store, then two 32-bit words out of the same memory.
const u64 = new BigUint64Array(1);
const u64Words = new Uint32Array(u64.buffer);
/** Index of the high 32-bit word of u64 on this host (1 on little-endian ones). */
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** Writes value modulo 2^64 as 8 big-endian bytes, as DataView#setBigUint64 does (faster in hot loops). */
export function setUint64BE(view: DataView, offset: number, value: bigint): void {
  u64[0] = value;
  view.setUint32(offset, u64Words[HIGH_WORD]!);
  view.setUint32(offset + 4, u64Words[1 - HIGH_WORD]!);
}

export function unpackPrevouts(blob: Uint8Array): (StoredPrevout | null)[] {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const result: (StoredPrevout | null)[] = [];
  for (let off = 0; off + PREVOUT_BYTES <= buf.length; off += PREVOUT_BYTES) {
    const scriptId = Number(buf.readBigUInt64BE(off + 44));
    result.push(
      scriptId === 0 && isZero(buf, off, off + 32)
        ? null
        : {
            txid: buf.toString('hex', off, off + 32),
            vout: buf.readUInt32BE(off + 32),
            value: buf.readBigUInt64BE(off + 36),
            scriptId,
          },
    );
  }
  return result;
}

function isZero(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] !== 0) return false;
  return true;
}

export function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

type Slice = (this: Uint8Array, start: number, end: number) => string;
type HexWrite = (this: Uint8Array, hex: string, offset: number, length: number) => number;
// Buffer#latin1Slice / #hexWrite are what toString('latin1') / write(…, 'hex') end in; they accept any Uint8Array,
// so the hot paths need no Buffer wrapper per call.
const proto = Buffer.prototype as unknown as { latin1Slice?: Slice; hexWrite?: HexWrite };
const latin1Slice: Slice = proto.latin1Slice
  ?? function (this: Uint8Array, start: number, end: number) {
    return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('latin1', start, end);
  };
const hexWrite: HexWrite = proto.hexWrite
  ?? function (this: Uint8Array, hex: string, offset: number, length: number) {
    return Buffer.from(this.buffer, this.byteOffset, this.byteLength).write(hex, offset, length, 'hex');
  };

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** A Map key for script bytes (latin1: one char per byte, half the length of hex). */
export function scriptKey(script: Uint8Array): string {
  return latin1Slice.call(script, 0, script.length);
}

/** Writes a 64-digit hex hash as 32 bytes at `offset` (the caller checked the length). */
export function writeHash(target: Uint8Array, hex: string, offset: number): void {
  if (hexWrite.call(target, hex, offset, 32) !== 32 || hex.length !== 64) throw new StoreError(`not a 32-byte hex hash: ${hex}`);
}
