/**
 * Bulk rows for PostgreSQL as `COPY … FROM STDIN (FORMAT binary)`.
 *
 * Why: initial sync sends hundreds of thousands of rows per batch. As unnest() array parameters they travel as
 * text (bytea as hex, twice the bytes) and the server parses every array literal; in binary COPY each field is
 * its length and its bytes. Measured on the 100,000-tx chain: see docs/benchmarks.md (Indexing).
 * Format: https://www.postgresql.org/docs/15/sql-copy.html ("Binary Format"); every field is big-endian.
 */
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { BufferPool } from '../../../core/infrastructure/buffer-pool.js';
import { writeHash } from '../../common/schema/codec.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const TWO_32 = 0x1_0000_0000;

/** A payload's header (signature, flags, extension length) and trailer, in bytes. */
export const COPY_FRAME_BYTES = 21;
/**
 * Bytes a row and its fields take in a payload (each field is its 4-byte length and its bytes; a null is the length
 * alone): callers that know their rows ask for the whole payload at once, so it is never copied to grow.
 */
export const COPY_BYTES = { row: 2, null: 4, bool: 5, int4: 8, int8: 12, hash: 36 } as const;

export function byteaBytes(length: number): number {
  return 4 + length;
}

/**
 * Rows of one COPY, each with the same number of fields, written in column order. Its memory is never from Node's
 * shared pool (allocUnsafeSlow): a finished payload's buffer is its own and can be transferred to another thread.
 * With a `pool`, it takes its memory from there and gives back what it outgrows.
 */
export class BinaryRows {
  private buf: Buffer;
  private at = 0;
  private count = 0;

  constructor(private readonly fields: number, initialBytes = 1 << 16, private readonly pool?: BufferPool) {
    this.buf = this.alloc(Math.max(initialBytes, 64));
    SIGNATURE.copy(this.buf, 0);
    this.buf.writeInt32BE(0, 11); // flags: no OIDs
    this.buf.writeInt32BE(0, 15); // header extension length
    this.at = 19;
  }

  get rows(): number {
    return this.count;
  }

  row(): this {
    this.ensure(2);
    this.buf.writeInt16BE(this.fields, this.at);
    this.at += 2;
    this.count++;
    return this;
  }

  null(): this {
    this.ensure(4);
    this.buf.writeInt32BE(-1, this.at);
    this.at += 4;
    return this;
  }

  bool(value: boolean): this {
    this.ensure(5);
    this.buf.writeInt32BE(1, this.at);
    this.buf[this.at + 4] = value ? 1 : 0;
    this.at += 5;
    return this;
  }

  int2(value: number): this {
    this.ensure(6);
    this.buf.writeInt32BE(2, this.at);
    this.buf.writeInt16BE(value, this.at + 4);
    this.at += 6;
    return this;
  }

  int4(value: number): this {
    this.ensure(8);
    this.buf.writeInt32BE(4, this.at);
    this.buf.writeInt32BE(value, this.at + 4);
    this.at += 8;
    return this;
  }

  int4OrNull(value: number | null): this {
    return value === null ? this.null() : this.int4(value);
  }

  /** A safe integer (ids, heights, counts and their deltas) or any bigint in int8 range (amounts). */
  int8(value: number | bigint): this {
    this.ensure(12);
    this.buf.writeInt32BE(8, this.at);
    if (typeof value === 'bigint') {
      this.buf.writeBigInt64BE(value, this.at + 4);
    } else {
      // Two 32-bit halves (two's complement for negatives): no BigInt allocated per field on the hot path.
      const high = Math.floor(value / TWO_32);
      this.buf.writeInt32BE(high, this.at + 4);
      this.buf.writeUInt32BE(value - high * TWO_32, this.at + 8);
    }
    this.at += 12;
    return this;
  }

  int8OrNull(value: number | bigint | null): this {
    return value === null ? this.null() : this.int8(value);
  }

  bytea(value: Uint8Array): this {
    this.ensure(4 + value.length);
    this.buf.writeInt32BE(value.length, this.at);
    this.buf.set(value, this.at + 4);
    this.at += 4 + value.length;
    return this;
  }

  /** A 32-byte hash given as its 64 hex digits, written straight into the payload (no Buffer per field). */
  hashHex(hex: string): this {
    this.ensure(36);
    this.buf.writeInt32BE(32, this.at);
    writeHash(this.buf, hex, this.at + 4);
    this.at += 36;
    return this;
  }

  byteaOrNull(value: Uint8Array | null): this {
    return value === null ? this.null() : this.bytea(value);
  }

  /** NUMERIC of an integer, exact at any size: base-10000 digits, most significant first. */
  numeric(value: bigint): this {
    const negative = value < 0n;
    let rest = negative ? -value : value;
    const digits: number[] = [];
    while (rest > 0n) {
      digits.push(Number(rest % 10000n));
      rest /= 10000n;
    }
    const weight = digits.length - 1;
    // Trailing zero digits are implied by the weight; PostgreSQL stores them stripped.
    let low = 0;
    while (low < digits.length && digits[low] === 0) low++;
    const stored = digits.length - low;
    this.ensure(4 + 8 + stored * 2);
    this.buf.writeInt32BE(8 + stored * 2, this.at);
    this.buf.writeInt16BE(stored, this.at + 4);
    this.buf.writeInt16BE(stored === 0 ? 0 : weight, this.at + 6);
    this.buf.writeUInt16BE(negative ? 0x4000 : 0, this.at + 8);
    this.buf.writeInt16BE(0, this.at + 10); // display scale: integers
    let at = this.at + 12;
    for (let i = digits.length - 1; i >= low; i--, at += 2) this.buf.writeInt16BE(digits[i]!, at);
    this.at = at;
    return this;
  }

  /** The whole COPY payload, trailer included: a view from the start of a buffer of this object's own. */
  finish(): Buffer {
    // No ensure: every write leaves room for these 2 bytes (so a payload sized up front is never grown here).
    this.buf.writeInt16BE(-1, this.at);
    return this.buf.subarray(0, this.at + 2);
  }

  private ensure(bytes: number): void {
    if (this.at + bytes + 2 <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + bytes + 2) size *= 2;
    const grown = this.alloc(size);
    this.buf.copy(grown, 0, 0, this.at);
    this.pool?.give(this.buf.buffer as ArrayBuffer);
    this.buf = grown;
  }

  /** Gives its memory back to its pool, for rows that will not be sent (none were written). */
  discard(): void {
    this.pool?.give(this.buf.buffer as ArrayBuffer);
  }

  private alloc(bytes: number): Buffer {
    return this.pool ? this.pool.take(bytes) : Buffer.allocUnsafeSlow(bytes);
  }
}

/** Runs `COPY <target> FROM STDIN (FORMAT binary)` with the rows; a no-op without rows. */
export async function copyRows(client: pg.ClientBase, target: string, rows: BinaryRows): Promise<void> {
  if (rows.rows === 0) return;
  await copyPayload(client, target, rows.finish());
}

/** Runs `COPY <target> FROM STDIN (FORMAT binary)` with a finished payload (BinaryRows.finish, maybe from another thread). */
export async function copyPayload(client: pg.ClientBase, target: string, payload: Uint8Array): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const stream = client.query(copyFrom(`COPY ${target} FROM STDIN (FORMAT binary)`));
    stream.on('finish', resolve);
    stream.on('error', reject);
    stream.end(payload);
  });
}
