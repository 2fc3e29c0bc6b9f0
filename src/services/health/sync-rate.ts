/** Blocks per second an index grew by over a sliding window, from the heights the health checks saw. */
export class SyncRate {
  private readonly samples: { at: number; height: number }[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly windowMs = 60_000,
  ) {}

  add(height: number): void {
    const at = this.now();
    this.samples.push({ at, height });
    // Keep one sample older than the window, so the rate always spans at least the window once it can.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** null until two samples at least a second apart exist; 0 when the index stood still (or rolled back). */
  perSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at - first.at < 1_000) return null;
    return Math.max(0, last.height - first.height) / ((last.at - first.at) / 1000);
  }
}
