/**
 * Engine-neutral rows of a dump (chain snapshot or account backup; docs/snapshots.md, "File format").
 *
 * A value is encoded by its meaning, not by how an engine stores it: every integer (SQLite INTEGER, PostgreSQL
 * INTEGER/BIGINT/NUMERIC, a SQLite TEXT decimal sum, a boolean as 0/1) becomes the same bytes, so a table read from
 * SQLite and the same table read from PostgreSQL give the same digest.
 */

export type DumpValue = null | bigint | Buffer | string;

/**
 * int: any integer column; bool: 0/1 in SQLite, BOOLEAN in PostgreSQL; sum: NUMERIC in PostgreSQL and decimal TEXT in
 * SQLite (block sums); total: NUMERIC in PostgreSQL and an INTEGER while it fits, else decimal TEXT, in SQLite (script
 * totals); blob; text.
 */
export type ColumnKind = 'int' | 'bool' | 'sum' | 'total' | 'blob' | 'text';

export interface DumpColumn {
  readonly name: string;
  readonly kind: ColumnKind;
}

export interface DumpTable {
  readonly name: string;
  readonly columns: readonly DumpColumn[];
  /** The canonical order (the table's key): the digest covers the rows in this order. */
  readonly orderBy: string;
  /** PostgreSQL: the id column is GENERATED ALWAYS AS IDENTITY (inserted with OVERRIDING SYSTEM VALUE, sequence moved). */
  readonly identity?: string;
  /** Only the rows this condition selects (e.g. one network's short addresses); none = every row. */
  readonly where?: string;
}

/** `'name int, other blob'` → columns: the table lists stay one readable line each. */
export function columns(spec: string): DumpColumn[] {
  return spec.split(',').map((part) => {
    const [name, kind] = part.trim().split(/\s+/) as [string, ColumnKind];
    return { name, kind };
  });
}

const NULL = 0;
const INT64 = 1;
const DECIMAL = 2;
const BYTES = 3;
const TEXT = 4;
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;

/** Appends rows to a growing buffer: [u32 length][values], each value a tag byte and its bytes. */
export class RowEncoder {
  buf = Buffer.allocUnsafe(1 << 20);
  at = 0;

  reset(): void {
    this.at = 0;
  }

  row(values: readonly DumpValue[]): void {
    const start = this.at;
    this.ensure(4);
    this.at += 4;
    for (const v of values) this.value(v);
    this.buf.writeUInt32BE(this.at - start - 4, start);
  }

  private value(v: DumpValue): void {
    if (v === null) {
      this.ensure(1);
      this.buf[this.at++] = NULL;
    } else if (typeof v === 'bigint') {
      if (v >= MIN_I64 && v <= MAX_I64) {
        this.ensure(9);
        this.buf[this.at] = INT64;
        this.buf.writeBigInt64BE(v, this.at + 1);
        this.at += 9;
      } else this.bytes(DECIMAL, Buffer.from(v.toString(), 'latin1'));
    } else if (typeof v === 'string') this.bytes(TEXT, Buffer.from(v, 'utf8'));
    else this.bytes(BYTES, v);
  }

  private bytes(tag: number, b: Buffer): void {
    this.ensure(5 + b.length);
    this.buf[this.at] = tag;
    this.buf.writeUInt32BE(b.length, this.at + 1);
    b.copy(this.buf, this.at + 5);
    this.at += 5 + b.length;
  }

  private ensure(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}

/** The values of one row's payload (without its length prefix); throws on malformed bytes. */
export function decodeRow(payload: Buffer, width: number): DumpValue[] {
  const out: DumpValue[] = new Array<DumpValue>(width);
  let at = 0;
  for (let i = 0; i < width; i++) {
    if (at >= payload.length) throw new Error('row shorter than its table');
    const tag = payload[at]!;
    if (tag === NULL) {
      out[i] = null;
      at += 1;
    } else if (tag === INT64) {
      out[i] = payload.readBigInt64BE(at + 1);
      at += 9;
    } else if (tag === DECIMAL || tag === BYTES || tag === TEXT) {
      const len = payload.readUInt32BE(at + 1);
      const end = at + 5 + len;
      if (end > payload.length) throw new Error('value runs past its row');
      const bytes = payload.subarray(at + 5, end);
      if (tag === DECIMAL) {
        const text = bytes.toString('latin1');
        if (!/^-?\d+$/.test(text)) throw new Error('malformed decimal');
        out[i] = BigInt(text);
      } else out[i] = tag === TEXT ? bytes.toString('utf8') : bytes; // a view of the stream's chunk, which is never reused
      at = end;
    } else throw new Error(`unknown value tag ${tag}`);
  }
  if (at !== payload.length) throw new Error('row longer than its table');
  return out;
}

/** An engine's value for `kind` in the dump's form. */
export function normalize(v: unknown, kind: ColumnKind): DumpValue {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'blob':
      return Buffer.isBuffer(v) ? v : Buffer.from(v as Uint8Array);
    case 'text':
      return String(v);
    case 'bool':
      return v === true || v === 1 || v === 1n || v === '1' || v === 't' ? 1n : 0n;
    default:
      return typeof v === 'bigint' ? v : BigInt(v as string | number);
  }
}
