/**
 * A token bucket: `burst` units at once, refilled at `perSecond`. A peer that spends more than it earns (inventory
 * entries, bytes) over a sustained stretch is flooding, whatever its individual messages look like.
 */
export class RateGuard {
  private tokens: number;
  private lastMs: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    nowMs: number,
  ) {
    this.tokens = burst;
    this.lastMs = nowMs;
  }

  /** Spends `n` units; false when the bucket would go below zero (the caller drops the peer). */
  spend(n: number, nowMs: number): boolean {
    const elapsed = Math.max(0, nowMs - this.lastMs);
    this.lastMs = nowMs;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.perSecond) / 1000);
    this.tokens -= n;
    return this.tokens >= 0;
  }
}
