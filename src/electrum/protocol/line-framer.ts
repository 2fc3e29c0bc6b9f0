/**
 * Splits a TCP stream into lines (each message ends with "\n"; a "\r" before it is dropped). A line longer than
 * `maxBytes`, ended or not, is an overflow: the connection is closed without reading more of it (the request line
 * bound, `[electrum] max_request_bytes`), so a client sending an endless line holds at most `maxBytes` of memory.
 */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      let line: string;
      if (this.pendingBytes === 0) {
        if (nl - start > this.maxBytes) return this.overflow();
        line = chunk.toString('utf8', start, nl);
      } else {
        if (this.pendingBytes + nl - start > this.maxBytes) return this.overflow();
        this.pending.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.pending).toString('utf8');
        this.pending = [];
        this.pendingBytes = 0;
      }
      start = nl + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim() !== '') this.onLine(line);
      if (this.overflowed) return;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) return this.overflow();
      // A copy: the chunk's memory may be reused by the socket.
      this.pending.push(Buffer.from(chunk.subarray(start)));
    }
  }

  /** Stops handing out lines (the connection is closing). */
  stop(): void {
    this.overflowed = true;
    this.pending = [];
    this.pendingBytes = 0;
  }

  private overflow(): void {
    this.stop();
    this.onOverflow();
  }
}
