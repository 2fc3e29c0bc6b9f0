import { ParseError } from '../../core/domain/errors.js';
import { hexOf } from '../hash.js';

/** Bitcoin Core's MAX_SIZE: no CompactSize length or count above 32 MiB is ever valid. */
export const MAX_COMPACT_SIZE = 0x02000000;

const scratch = Buffer.alloc(32);

/**
 * Hex of 32 bytes at `offset` in reverse order (display order of txids and block hashes).
 * One native hex call on a reused scratch buffer: much cheaper than per-byte string building.
 */
export function displayHex(bytes: Uint8Array, offset: number): string {
  for (let i = 0; i < 32; i++) scratch[i] = bytes[offset + 31 - i]!;
  return hexOf(scratch, 0, 32);
}

/**
 * Zero-copy cursor over a byte array. Every read checks bounds and throws ParseError (never a
 * RangeError or an out-of-range undefined), so callers can treat any malformed input uniformly.
 * Byte slices are subarray views: no copying, the caller keeps the source buffer alive.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Absolute index of the next byte to read. */
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    if (start < 0 || end > bytes.length || start > end) throw new ParseError('reader window out of range', start);
    // A plain Uint8Array view: Buffer#subarray builds a FastBuffer, several times slower per slice.
    this.bytes = Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Throws unless n more bytes are available; returns the position before them. */
  need(n: number): number {
    const at = this.pos;
    if (n > this.end - at) throw new ParseError(`unexpected end of data (need ${n} bytes, have ${this.end - at})`, at);
    return at;
  }

  skip(n: number): void {
    this.pos = this.need(n) + n;
  }

  u8(): number {
    const at = this.pos;
    if (at >= this.end) throw new ParseError('unexpected end of data (need 1 byte, have 0)', at);
    this.pos = at + 1;
    return this.bytes[at]!;
  }

  u16(): number {
    const at = this.need(2);
    this.pos = at + 2;
    return this.view.getUint16(at, true);
  }

  u32(): number {
    const at = this.need(4);
    this.pos = at + 4;
    return this.view.getUint32(at, true);
  }

  i32(): number {
    const at = this.need(4);
    this.pos = at + 4;
    return this.view.getInt32(at, true);
  }

  u64(): bigint {
    const at = this.need(8);
    this.pos = at + 8;
    return this.view.getBigUint64(at, true);
  }

  /** Signed 64-bit, as Core's CAmount: out-of-range amounts stay visible instead of wrapping. */
  i64(): bigint {
    const at = this.need(8);
    this.pos = at + 8;
    return this.view.getBigInt64(at, true);
  }

  /** A view of the next n bytes. */
  slice(n: number): Uint8Array {
    const at = this.need(n);
    this.pos = at + n;
    return this.bytes.subarray(at, at + n);
  }

  /** A 32-byte hash, returned as hex in display (byte-reversed) order. */
  hashHex(): string {
    const at = this.need(32);
    this.pos = at + 32;
    return displayHex(this.bytes, at);
  }

  /**
   * CompactSize as Core reads it: rejects non-minimal encodings (they would change txids on
   * re-serialization) and anything above `max` (default Core's MAX_SIZE).
   */
  compactSize(max = MAX_COMPACT_SIZE): number {
    const at = this.pos;
    const first = this.u8();
    let value: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      value = this.u16();
      if (value < 0xfd) throw new ParseError('non-canonical CompactSize', at);
    } else if (first === 0xfe) {
      value = this.u32();
      if (value < 0x10000) throw new ParseError('non-canonical CompactSize', at);
    } else {
      const big = this.u64();
      if (big < 0x100000000n) throw new ParseError('non-canonical CompactSize', at);
      throw new ParseError('CompactSize too large', at);
    }
    if (value > max) throw new ParseError(`CompactSize ${value} exceeds ${max}`, at);
    return value;
  }

  /**
   * A CompactSize element count, checked against the bytes left: each element needs at least
   * minItemBytes, so a forged huge count fails here instead of allocating a huge array.
   */
  count(minItemBytes: number): number {
    const at = this.pos;
    const n = this.compactSize();
    if (n * minItemBytes > this.end - this.pos) {
      throw new ParseError(`count ${n} cannot fit in the ${this.end - this.pos} bytes left`, at);
    }
    return n;
  }

  /** CompactSize length followed by that many bytes (scripts, witness items). */
  varBytes(): Uint8Array {
    const at = this.pos;
    const n = this.compactSize();
    if (n > this.end - this.pos) throw new ParseError(`length ${n} runs past the end of data`, at);
    return this.slice(n);
  }

  /**
   * Bitcoin Core's VARINT (serialize.h ReadVarInt, default mode): MSB-first base-128 where each
   * continuation adds one, so every value has exactly one encoding. Used by MWEB structures.
   */
  varint(): bigint {
    const at = this.pos;
    let n = 0n;
    for (;;) {
      const b = this.u8();
      if (n > 0xffffffffffffffffn >> 7n) throw new ParseError('VARINT too large', at);
      n = (n << 7n) | BigInt(b & 0x7f);
      if ((b & 0x80) === 0) return n;
      if (n === 0xffffffffffffffffn) throw new ParseError('VARINT too large', at);
      n += 1n;
    }
  }

  /** VARINT that must fit a JS safe integer (heights, fees stay exact). */
  varintNumber(): number {
    const at = this.pos;
    const n = this.varint();
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new ParseError('VARINT exceeds 2^53-1', at);
    return Number(n);
  }

  /** Throws unless every byte has been consumed: trailing bytes mean a misparse or garbage. */
  assertEnd(what: string): void {
    if (this.pos !== this.end) throw new ParseError(`${this.end - this.pos} trailing bytes after ${what}`, this.pos);
  }
}
