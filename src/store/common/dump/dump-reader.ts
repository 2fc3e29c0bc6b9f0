/**
 * Reads a dump file written by DumpWriter, checking as it goes: every table's rows are hashed while they are read and
 * compared with the manifest at the end (verify), so a flipped byte or a cut-off file is refused before the loading
 * transaction commits. Everything wrong with the file is a DumpError with a message for the operator.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import { DUMP_MAGIC, DumpError, type DumpManifest, type TableDigest } from './dump-format.js';
import { decodeRow, type DumpColumn, type DumpValue } from './dump-rows.js';

export interface TableStart {
  readonly table: string;
  readonly columns: readonly DumpColumn[];
}

export class DumpReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private current: { start: TableStart; hash: Hash; rows: number } | null = null;
  private readonly read: TableDigest[] = [];
  private manifestSeen: DumpManifest | null = null;
  private headerSha = '';
  private lastFrame: Buffer = Buffer.alloc(0);
  /** Start of the current table's row bytes not hashed yet (-1 outside a table): hashed in spans, not per row. */
  private hashFrom = -1;

  constructor(private readonly path: string) {
    // Room to decompress ahead (zlib runs on the thread pool) while the caller inserts the last rows.
    const gunzip = createGunzip({ readableHighWaterMark: 8 << 20 } as ZlibOptions); // passed on to the Transform (untyped)
    const file = createReadStream(path, { highWaterMark: 1 << 20 });
    file.on('error', (err) => gunzip.destroy(err)); // pipe() does not pass a read error on
    this.chunks = file.pipe(gunzip)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  async header<T>(): Promise<T> {
    const magic = await this.take(DUMP_MAGIC.length);
    if (!magic.equals(DUMP_MAGIC)) throw new DumpError(`${this.path} is not an Outpoint dump (or a newer format)`);
    const header = await this.json();
    this.headerSha = createHash('sha256').update(this.lastFrame).digest('hex');
    return header as T;
  }

  /** The next table's name and columns, or null once the manifest has been read. */
  async nextTable(): Promise<TableStart | null> {
    const frame = (await this.json()) as { table?: string; columns?: DumpColumn[]; manifest?: DumpManifest };
    if (frame.manifest) {
      this.manifestSeen = frame.manifest;
      return null;
    }
    if (typeof frame.table !== 'string' || !Array.isArray(frame.columns)) throw this.corrupt('expected a table');
    const start = { table: frame.table, columns: frame.columns };
    this.current = { start, hash: createHash('sha256'), rows: 0 };
    this.hashFrom = this.pos;
    return start;
  }

  /** Up to `max` rows of the current table; an empty list once it has ended. */
  async rows(max: number): Promise<DumpValue[][]> {
    const cur = this.current;
    if (!cur) return [];
    const out: DumpValue[][] = [];
    const width = cur.start.columns.length;
    while (out.length < max) {
      await this.need(4);
      const len = this.buf.readUInt32BE(this.pos);
      if (len === 0) {
        cur.hash.update(this.buf.subarray(this.hashFrom, this.pos));
        this.hashFrom = -1;
        this.pos += 4;
        const end = (await this.json()) as { end?: string; rows?: number };
        if (end.end !== cur.start.table || end.rows !== cur.rows) throw this.corrupt(`table ${cur.start.table} ends wrongly`);
        this.read.push({ table: cur.start.table, rows: cur.rows, sha256: cur.hash.digest('hex') });
        this.current = null;
        break;
      }
      await this.need(4 + len);
      try {
        out.push(decodeRow(this.buf.subarray(this.pos + 4, this.pos + 4 + len), width));
      } catch (err) {
        throw this.corrupt(`bad row in ${cur.start.table}: ${(err as Error).message}`);
      }
      this.pos += 4 + len;
      cur.rows++;
    }
    return out;
  }

  /** After the last table: the manifest, once every table's count and digest matched it. */
  async verify(): Promise<DumpManifest> {
    const m = this.manifestSeen;
    if (!m) throw new Error('verify() before the manifest was read');
    // The gzip trailer (CRC-32 and length) is checked when the stream ends: read on to its end.
    if ((await this.chunks.next().catch((err: Error) => { throw this.corrupt(err.message); })).done !== true || this.pos !== this.buf.length) {
      throw this.corrupt('data after the manifest');
    }
    if (m.header_sha256 !== this.headerSha) throw this.corrupt('the header does not match the manifest');
    const expected = new Map(m.tables.map((t) => [t.table, t]));
    if (expected.size !== this.read.length) throw this.corrupt(`the manifest lists ${expected.size} tables, the file has ${this.read.length}`);
    for (const got of this.read) {
      const want = expected.get(got.table);
      if (!want) throw this.corrupt(`table ${got.table} is not in the manifest`);
      if (want.rows !== got.rows) throw this.corrupt(`table ${got.table} has ${got.rows} rows, the manifest says ${want.rows}`);
      if (want.sha256 !== got.sha256) throw this.corrupt(`table ${got.table}'s rows do not match the manifest's SHA-256`);
    }
    return m;
  }

  close(): void {
    void this.chunks.return?.();
  }

  private corrupt(why: string): DumpError {
    return new DumpError(`${this.path} is corrupt or truncated (${why}); nothing was loaded`);
  }

  private async json(): Promise<unknown> {
    await this.need(4);
    const len = this.buf.readUInt32BE(this.pos);
    if (len > 64 << 20) throw this.corrupt('oversized frame');
    await this.need(4 + len);
    this.lastFrame = this.buf.subarray(this.pos, this.pos + 4 + len);
    const text = this.buf.toString('utf8', this.pos + 4, this.pos + 4 + len);
    this.pos += 4 + len;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.corrupt('malformed frame');
    }
  }

  private async take(n: number): Promise<Buffer> {
    await this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Makes `n` bytes available at pos, reading on as needed. */
  private async need(n: number): Promise<void> {
    while (this.buf.length - this.pos < n) {
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (err) {
        throw this.corrupt((err as Error).message);
      }
      if (next.done) throw this.corrupt('unexpected end of file');
      if (this.hashFrom >= 0) {
        this.current!.hash.update(this.buf.subarray(this.hashFrom, this.pos));
        this.hashFrom = 0;
      }
      this.buf = this.pos === this.buf.length ? next.value : Buffer.concat([this.buf.subarray(this.pos), next.value]);
      this.pos = 0;
    }
  }
}
