/**
 * Requests per second of one connection (`[electrum] requests_per_second`): a token bucket holding ten seconds' worth
 * (a wallet's start-up burst: a subscription and a history per address), refilled at the rate. Past it, requests are
 * not refused but held back: each waits until the bucket has its token, so a client that keeps flooding is served at
 * the rate and no faster. 0 = no limit.
 */
export class RequestBudget {
  private tokens: number;
  private at: number;
  private readonly capacity: number;

  constructor(private readonly perSecond: number, private readonly now: () => number = () => performance.now()) {
    this.capacity = perSecond * 10;
    this.tokens = this.capacity;
    this.at = now();
  }

  /** Takes `n` tokens (the bucket may go into debt) and says how many ms to wait before the requests run (0: now). */
  take(n: number): number {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
    this.tokens -= n;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.perSecond;
  }
}
