/**
 * The last answer of a probe that runs in the background (a node's block count, the index tip), for readers that
 * must never wait on it: /ready and /metrics read `value` and `error` synchronously. A probe that has not answered
 * within `timeoutMs` counts as failed at once (a hung node accepts the connection and never answers, so waiting for
 * the call's own failure could take minutes); a new probe starts only when the previous one has settled, so a hung
 * dependency holds one call, not one per interval.
 */
export class PolledValue<T> {
  /** The last value answered (kept while the probe fails, so figures such as a lag stay visible). */
  value: T | null = null;
  /** Why the last probe failed, or null when it answered. */
  error: string | null = 'not checked yet';
  /** When the probe last answered (ms since the epoch), or null. */
  answeredAt: number | null = null;
  private pendingSince: number | null = null;

  constructor(
    private readonly probe: () => Promise<T>,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True until the first probe has settled or timed out. */
  get unchecked(): boolean {
    return this.answeredAt === null && this.error === 'not checked yet';
  }

  /** Starts a probe unless one is still running; resolves when it settles (never rejects). */
  async refresh(): Promise<void> {
    if (this.pendingSince !== null) {
      if (this.now() - this.pendingSince >= this.timeoutMs) this.error = this.timeoutMessage();
      return;
    }
    this.pendingSince = this.now();
    const timer = setTimeout(() => {
      this.error = this.timeoutMessage();
    }, this.timeoutMs);
    timer.unref();
    try {
      const value = await this.probe();
      this.value = value;
      this.error = null;
      this.answeredAt = this.now();
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
      this.pendingSince = null;
    }
  }

  private timeoutMessage(): string {
    return `no answer within ${formatSeconds(this.timeoutMs)}`;
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
