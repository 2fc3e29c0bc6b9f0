/**
 * Writes a dump file (docs/snapshots.md, "File format"): gzip of the magic line, a JSON header, each table as a JSON
 * frame naming it and its columns followed by its rows in canonical order and an end frame, and last a JSON manifest
 * with every table's row count and SHA-256 over its row frames. The file is written as FILE.partial and renamed only
 * once complete, so a failed or interrupted export never leaves a file that looks whole.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, type Gzip, type ZlibOptions } from 'node:zlib';
import { DUMP_MAGIC, jsonFrame, type DumpManifest, type TableDigest } from './dump-format.js';
import { RowEncoder, type DumpTable, type DumpValue } from './dump-rows.js';

const FLUSH_BYTES = 1 << 20;

export class DumpWriter {
  private readonly gzip: Gzip;
  private readonly file: WriteStream;
  private readonly partial: string;
  private readonly digests: TableDigest[] = [];
  private headerSha = '';

  constructor(private readonly path: string, level = 3) {
    this.partial = `${path}.partial`;
    // Owner-only: a backup holds password and key hashes, a snapshot the store's secret script-key salt.
    this.file = createWriteStream(this.partial, { mode: 0o600 });
    // Level 3: most of a chain is hashes and raw txs, which compress little; higher levels cost time for a few %.
    // Room for a few chunks: reading the next rows overlaps compressing the last ones (zlib runs on the thread pool).
    this.gzip = createGzip({ level, writableHighWaterMark: 8 << 20 } as ZlibOptions); // passed on to the Transform (untyped)
    this.gzip.pipe(this.file);
  }

  async header(header: object): Promise<void> {
    const frame = jsonFrame(header);
    this.headerSha = createHash('sha256').update(frame).digest('hex');
    await this.write(Buffer.concat([DUMP_MAGIC, frame]));
  }

  /** Writes one table's rows (already in canonical order) and returns its count and digest. */
  async table(table: DumpTable, pages: AsyncIterable<readonly (readonly DumpValue[])[]>): Promise<TableDigest> {
    await this.write(jsonFrame({ table: table.name, columns: table.columns }));
    const hash = createHash('sha256');
    const enc = new RowEncoder();
    let count = 0;
    const flush = async (): Promise<void> => {
      const bytes = Buffer.from(enc.buf.subarray(0, enc.at));
      hash.update(bytes);
      enc.reset();
      await this.write(bytes);
    };
    for await (const page of pages) {
      for (const row of page) enc.row(row);
      count += page.length;
      if (enc.at >= FLUSH_BYTES) await flush();
    }
    await flush();
    const digest: TableDigest = { table: table.name, rows: count, sha256: hash.digest('hex') };
    const end = Buffer.alloc(4); // a zero-length row ends the table
    await this.write(Buffer.concat([end, jsonFrame({ end: table.name, rows: count })]));
    this.digests.push(digest);
    return digest;
  }

  /** Writes the manifest, closes the file and gives it its name. */
  async finish(extra: Omit<DumpManifest, 'tables' | 'header_sha256'>): Promise<DumpManifest> {
    const manifest: DumpManifest = { ...extra, header_sha256: this.headerSha, tables: this.digests };
    await this.write(jsonFrame({ manifest }));
    this.gzip.end();
    await once(this.file, 'close');
    renameSync(this.partial, this.path);
    return manifest;
  }

  /** Removes the partial file (after an error). */
  async abort(): Promise<void> {
    this.gzip.destroy();
    this.file.destroy();
    await once(this.file, 'close').catch(() => undefined);
    rmSync(this.partial, { force: true });
  }

  private async write(bytes: Buffer): Promise<void> {
    if (!this.gzip.write(bytes)) await once(this.gzip, 'drain');
  }
}
