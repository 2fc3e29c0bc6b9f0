/**
 * Transactions per minute over a sliding window, in one-second buckets: constant memory however
 * busy the network, and exact enough for an activity figure.
 */
export class TxRate {
  private readonly buckets: Uint32Array;
  private readonly windowSec: number;
  private lastSecond = -1;
  private total = 0;

  constructor(windowSec = 60) {
    this.windowSec = windowSec;
    this.buckets = new Uint32Array(windowSec);
  }

  record(nowMs: number): void {
    this.advance(Math.floor(nowMs / 1000));
    this.buckets[this.lastSecond % this.windowSec]!++;
    this.total++;
  }

  /** Transactions per minute over the last windowSec seconds. */
  perMinute(nowMs: number): number {
    this.advance(Math.floor(nowMs / 1000));
    return (this.total * 60) / this.windowSec;
  }

  private advance(second: number): void {
    if (this.lastSecond < 0) {
      this.lastSecond = second;
      return;
    }
    if (second <= this.lastSecond) return;
    const steps = Math.min(second - this.lastSecond, this.windowSec);
    for (let i = 1; i <= steps; i++) {
      const slot = (this.lastSecond + i) % this.windowSec;
      this.total -= this.buckets[slot]!;
      this.buckets[slot] = 0;
    }
    this.lastSecond = second;
  }
}
