/**
 * Large buffers kept for reuse instead of freed, for memory that two threads hand back and forth batch after batch
 * (an initial load's raw blocks one way, its COPY payloads the other).
 *
 * Why: on the 2-vCPU VMs we run on, a page touched for the first time costs ~24 µs (filling a fresh 100 MiB buffer
 * took ~600 ms, filling it again 1–2 ms), and a freed buffer of that size goes back to the system. A load that took
 * fresh memory for every batch spent ~6 ms per MiB it wrote on page faults alone (docs/benchmarks.md, "PostgreSQL's
 * initial load, sixth round").
 */

/** Below this, memory is cheap enough to take fresh: small buffers are neither kept nor taken from the pool. */
export const SMALL_BYTES = 1 << 16;

export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  private bytes = 0;

  /**
   * `maxBuffers` and `maxBytes`: how much is kept at most (the smallest buffer is let go first: the largest serve any
   * request); `minBytes`: the smallest buffer kept or taken from the pool (tests make it 0, so that a small chain's
   * batches reuse memory too).
   */
  constructor(private readonly maxBuffers = 16, private readonly minBytes = SMALL_BYTES, private readonly maxBytes = 256 * 1024 * 1024) {}

  /** How many buffers are kept now (tests). */
  get size(): number {
    return this.free.length;
  }

  /** How many bytes are kept now (tests). */
  get keptBytes(): number {
    return this.bytes;
  }

  /**
   * A buffer of at least `bytes`: the smallest kept one that is large enough, else a new one a quarter larger than
   * asked (so that a batch a little larger than the last still finds it), never from Node's shared pool.
   */
  take(bytes: number): Buffer {
    if (bytes < this.minBytes) return Buffer.allocUnsafeSlow(bytes);
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best < 0) return Buffer.allocUnsafeSlow(Math.ceil(bytes * 1.25));
    const [buffer] = this.free.splice(best, 1);
    this.bytes -= buffer!.byteLength;
    return Buffer.from(buffer!);
  }

  /** Keeps a buffer nothing reads any more (a small one, or a detached one of length 0, is let go). */
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0 || buffer.byteLength < this.minBytes) return;
    this.free.push(buffer);
    this.bytes += buffer.byteLength;
    while (this.free.length > this.maxBuffers || this.bytes > this.maxBytes) {
      let smallest = 0;
      for (let i = 1; i < this.free.length; i++) if (this.free[i]!.byteLength < this.free[smallest]!.byteLength) smallest = i;
      this.bytes -= this.free[smallest]!.byteLength;
      this.free.splice(smallest, 1);
    }
  }
}
