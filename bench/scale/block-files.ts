/**
 * The generated chain on disk: blocks back to back in `blocks-NNNN.dat` files (at most ~1 GiB each, raw block bytes
 * as a node serves them), `index.bin` with one 64-byte record per height, and `meta.json` (how it was made, what it
 * looks like). Written once, read by the stand-in node and the benchmark.
 *
 * index.bin record (little-endian): hash (32 bytes, internal order), file number u32, block size u32, offset f64,
 * tx count u32, time u32, txs up to and including this block f64.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { GeneratedBlock } from './chain-generator.js';

export const RECORD_BYTES = 64;
const MAX_FILE_BYTES = 1 << 30;

export const blockFileName = (n: number): string => `blocks-${String(n).padStart(4, '0')}.dat`;

export class BlockFileWriter {
  private file = -1;
  private fd = -1;
  private offset = 0;
  private index = Buffer.alloc(RECORD_BYTES * 4096);
  private count = 0;
  private txs = 0;
  bytes = 0;

  constructor(private readonly dir: string) {}

  append(block: GeneratedBlock): void {
    if (this.fd < 0 || this.offset + block.bytes.length > MAX_FILE_BYTES) this.nextFile();
    writeSync(this.fd, block.bytes);
    if ((this.count + 1) * RECORD_BYTES > this.index.length) {
      const grown = Buffer.alloc(this.index.length * 2);
      this.index.copy(grown);
      this.index = grown;
    }
    const at = this.count * RECORD_BYTES;
    this.txs += block.txCount;
    this.index.set(block.hash, at);
    this.index.writeUInt32LE(this.file, at + 32);
    this.index.writeUInt32LE(block.bytes.length, at + 36);
    this.index.writeDoubleLE(this.offset, at + 40);
    this.index.writeUInt32LE(block.txCount, at + 48);
    this.index.writeUInt32LE(block.time, at + 52);
    this.index.writeDoubleLE(this.txs, at + 56);
    this.offset += block.bytes.length;
    this.bytes += block.bytes.length;
    this.count++;
  }

  /** Writes the index and meta.json; the chain is complete only once meta.json exists. */
  close(meta: object): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    writeFileSync(join(this.dir, 'index.bin'), this.index.subarray(0, this.count * RECORD_BYTES));
    writeFileSync(join(this.dir, 'meta.json'), `${JSON.stringify(meta, null, 1)}\n`);
  }

  private nextFile(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.file++;
    this.fd = openSync(join(this.dir, blockFileName(this.file)), 'w');
    this.offset = 0;
  }
}

/** Read access to a generated chain: hashes and offsets in memory, block bytes from the files on demand. */
export class ChainFiles {
  readonly tipHeight: number;
  private readonly hashes: string[] = [];
  private readonly heights = new Map<string, number>();
  private readonly handles = new Map<number, Promise<FileHandle>>();

  private constructor(
    readonly dir: string,
    private readonly index: Buffer,
  ) {
    this.tipHeight = index.length / RECORD_BYTES - 1;
    for (let h = 0; h <= this.tipHeight; h++) {
      const hex = Buffer.from(index.subarray(h * RECORD_BYTES, h * RECORD_BYTES + 32)).reverse().toString('hex');
      this.hashes.push(hex);
      this.heights.set(hex, h);
    }
  }

  static open(dir: string): ChainFiles {
    return new ChainFiles(dir, readFileSync(join(dir, 'index.bin')));
  }

  /** Display-order hex hash of the block at a height. */
  hashAt(height: number): string {
    return this.hashes[height]!;
  }

  heightOf(hash: string): number | undefined {
    return this.heights.get(hash);
  }

  txCount(height: number): number {
    return this.index.readUInt32LE(height * RECORD_BYTES + 48);
  }

  time(height: number): number {
    return this.index.readUInt32LE(height * RECORD_BYTES + 52);
  }

  size(height: number): number {
    return this.index.readUInt32LE(height * RECORD_BYTES + 36);
  }

  /** Transactions in blocks 0..height. */
  txsThrough(height: number): number {
    return height < 0 ? 0 : this.index.readDoubleLE(height * RECORD_BYTES + 56);
  }

  /** The lowest height whose block brings the chain to at least `txs` transactions (the tip if it never does). */
  heightForTxs(txs: number): number {
    let lo = 0;
    let hi = this.tipHeight;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.txsThrough(mid) >= txs) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  async readBlock(height: number): Promise<Buffer> {
    return this.read(height, this.size(height));
  }

  /** The first `bytes` bytes of a block (80: its header). */
  async read(height: number, bytes: number): Promise<Buffer> {
    const at = height * RECORD_BYTES;
    const file = this.index.readUInt32LE(at + 32);
    const offset = this.index.readDoubleLE(at + 40);
    const buf = Buffer.allocUnsafe(bytes);
    const handle = await this.handle(file);
    let done = 0;
    while (done < bytes) {
      const { bytesRead } = await handle.read(buf, done, bytes - done, offset + done);
      if (bytesRead === 0) throw new Error(`${blockFileName(file)} ends before block ${height}`);
      done += bytesRead;
    }
    return buf;
  }

  async close(): Promise<void> {
    for (const handle of this.handles.values()) await (await handle).close();
    this.handles.clear();
  }

  private handle(file: number): Promise<FileHandle> {
    let handle = this.handles.get(file);
    if (!handle) {
      handle = open(join(this.dir, blockFileName(file)), 'r');
      this.handles.set(file, handle);
    }
    return handle;
  }
}
