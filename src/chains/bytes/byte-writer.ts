/** Growable little-endian byte sink, the inverse of ByteReader. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(Number.isSafeInteger(initialCapacity) ? Math.max(16, initialCapacity) : 256);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.len;
  }

  private reserve(n: number): number {
    const at = this.len;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.len = at + n;
    return at;
  }

  u8(v: number): this {
    const at = this.reserve(1); // before reading this.buf: reserve may replace it
    this.buf[at] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    const at = this.reserve(2);
    this.view.setUint16(at, v, true);
    return this;
  }

  u32(v: number): this {
    const at = this.reserve(4);
    this.view.setUint32(at, v >>> 0, true);
    return this;
  }

  i32(v: number): this {
    const at = this.reserve(4);
    this.view.setInt32(at, v | 0, true);
    return this;
  }

  u64(v: bigint): this {
    const at = this.reserve(8);
    this.view.setBigUint64(at, v, true);
    return this;
  }

  i64(v: bigint): this {
    const at = this.reserve(8);
    this.view.setBigInt64(at, v, true);
    return this;
  }

  bytes(b: Uint8Array): this {
    const at = this.reserve(b.length);
    this.buf.set(b, at);
    return this;
  }

  /** Always the minimal encoding, so parse(serialize(x)) passes the reader's canonical check. */
  compactSize(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad CompactSize ${n}`);
    if (n < 0xfd) return this.u8(n);
    if (n <= 0xffff) return this.u8(0xfd).u16(n);
    if (n <= 0xffffffff) return this.u8(0xfe).u32(n);
    return this.u8(0xff).u64(BigInt(n));
  }

  varBytes(b: Uint8Array): this {
    return this.compactSize(b.length).bytes(b);
  }

  /** Bitcoin Core VARINT (MSB base-128, +1 per continuation), as ByteReader.varint reads it. */
  varint(value: bigint | number): this {
    let n = BigInt(value);
    if (n < 0n || n > 0xffffffffffffffffn) throw new RangeError(`bad VARINT ${n}`);
    const tmp: number[] = [];
    for (;;) {
      tmp.push(Number(n & 0x7fn) | (tmp.length > 0 ? 0x80 : 0));
      if (n <= 0x7fn) break;
      n = (n >> 7n) - 1n;
    }
    for (let i = tmp.length - 1; i >= 0; i--) this.u8(tmp[i]!);
    return this;
  }

  /** A copy trimmed to the written length. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
