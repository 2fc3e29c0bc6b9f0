import type { WireFrame } from '../protocol/protocol-messages.js';
import type { SendAll } from './send-all.js';

/** A subscriber whose socket can take a frame straight from a batch. */
export interface DirectTarget {
  /** Descriptor to write the next frame to directly, or -1 when it must go through deliver(). */
  directFd(): number;
  /** After the batch: `sent` bytes of the frame went out (negative: an errno); the rest is the target's to queue. */
  completeDirect(frame: WireFrame, sent: number): void;
}

/** Below this many sockets per thread, starting a thread costs more than it saves. */
const MIN_SOCKETS_PER_THREAD = 1000;

/**
 * Collects the sockets one frame goes to, then sends it to all of them in one call. Reused across
 * publishes: its arrays grow to the largest channel and stay, so a publish allocates nothing.
 */
export class SendBatch {
  private fds = new Int32Array(256);
  private out = new Int32Array(256);
  private targets: (DirectTarget | undefined)[] = [];
  private count = 0;

  constructor(
    private readonly sendAll: SendAll,
    private readonly threads: number,
  ) {}

  add(target: DirectTarget, fd: number): void {
    if (this.count === this.fds.length) {
      const fds = new Int32Array(this.fds.length * 2);
      fds.set(this.fds);
      this.fds = fds;
      this.out = new Int32Array(fds.length);
    }
    this.fds[this.count] = fd;
    this.targets[this.count++] = target;
  }

  /** Sends the frame to every target added since the last flush; returns how many there were. */
  flush(frame: WireFrame): number {
    const count = this.count;
    this.count = 0;
    if (count === 0) return 0;
    const threads = Math.max(1, Math.min(this.threads, Math.floor(count / MIN_SOCKETS_PER_THREAD)));
    this.sendAll(this.fds, count, frame.bytes, this.out, threads);
    for (let i = 0; i < count; i++) {
      const target = this.targets[i]!;
      // Cleared so a closed connection is not kept alive by the reused array.
      this.targets[i] = undefined;
      target.completeDirect(frame, this.out[i]!);
    }
    return count;
  }
}
