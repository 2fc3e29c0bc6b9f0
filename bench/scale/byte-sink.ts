/**
 * A growable little-endian byte buffer for the chain generator's hot loop. Writers call reserve() once with an upper
 * bound for what follows (a whole transaction) and then write without per-call bounds checks.
 */
export class ByteSink {
  buf: Uint8Array;
  pos = 0;

  constructor(capacity = 1 << 20) {
    this.buf = new Uint8Array(capacity);
  }

  /** Room for at least n more bytes. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  reset(): void {
    this.pos = 0;
  }

  u8(v: number): void {
    this.buf[this.pos++] = v;
  }

  /** Two bytes (script opcodes). */
  u8x2(a: number, b: number): void {
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
  }

  /** Three bytes (script opcodes). */
  u8x3(a: number, b: number, c: number): void {
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
    this.buf[this.pos++] = c;
  }

  u32(v: number): void {
    const b = this.buf;
    let p = this.pos;
    b[p++] = v & 0xff;
    b[p++] = (v >>> 8) & 0xff;
    b[p++] = (v >>> 16) & 0xff;
    b[p++] = (v >>> 24) & 0xff;
    this.pos = p;
  }

  /** A non-negative integer below 2^53 as 8 little-endian bytes (amounts). */
  u64(v: number): void {
    this.u32(v % 4294967296);
    this.u32(Math.floor(v / 4294967296));
  }

  compactSize(n: number): void {
    if (n < 0xfd) {
      this.buf[this.pos++] = n;
    } else if (n <= 0xffff) {
      this.buf[this.pos++] = 0xfd;
      this.buf[this.pos++] = n & 0xff;
      this.buf[this.pos++] = n >>> 8;
    } else {
      this.buf[this.pos++] = 0xfe;
      this.u32(n);
    }
  }

  bytes(src: Uint8Array, from = 0, to = src.length): void {
    this.buf.set(src.subarray(from, to), this.pos);
    this.pos += to - from;
  }

  /** A copy of [from, to). */
  copy(from = 0, to = this.pos): Uint8Array {
    return this.buf.slice(from, to);
  }
}
