/**
 * Periodic clean-up of the dashboard's data: ended sessions and expired one-time tokens, and per-day request
 * counts older than [accounts] usage_keep_days. Runs at start and hourly; idempotent, so several API processes
 * may each run it.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { AuthStore } from '../../core/store/auth-store.js';
import { utcDay } from '../../core/limits/utc-day.js';

const EVERY_MS = 3_600_000;

export class AccountHousekeeping {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      readonly accounts: AccountStore;
      readonly auth: AuthStore;
      readonly idleSeconds: number;
      readonly usageKeepDays: number;
      readonly logger: Logger;
      /** UNIX seconds. */
      readonly now: () => number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), EVERY_MS);
    this.timer.unref();
    void this.run();
  }

  /** One pass; resolves the rows removed. */
  async runOnce(): Promise<{ auth: number; usage: number }> {
    const now = this.deps.now();
    const auth = await this.deps.auth.prune(now, now - this.deps.idleSeconds);
    const usage = await this.deps.accounts.pruneUsage(utcDay(now - this.deps.usageKeepDays * 86_400));
    return { auth, usage };
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private run(): Promise<void> {
    this.running ??= this.runOnce().then(
      (removed) => {
        if (removed.auth + removed.usage > 0) this.deps.logger.info('account housekeeping', { sessions_and_tokens: removed.auth, usage_rows: removed.usage });
      },
      (error: unknown) => this.deps.logger.warn('account housekeeping failed', { error: (error as Error).message }),
    ).finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
