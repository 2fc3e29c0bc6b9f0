/**
 * An account's webhook deliveries per UTC day (its plan's `deliveries_per_day`, docs/webhooks.md, Limits), as the
 * matcher spends it. Past it the account costs nothing more until midnight UTC: no delivery is made, no tx watch is
 * stored, no watched tx's depth is read at a block, and one line a hour says so (not one per dropped delivery: an
 * account over its budget must not be able to fill the log either).
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { WebhookStore } from '../../core/store/webhook-store.js';
import type { WebhookLimits } from './webhook-limits.js';

const DAY_MS = 86_400_000;
/** How long a plan's limit and the stored count are trusted: other processes deliver for the same account too. */
const REFRESH_MS = 60_000;
/** At most one "budget spent" line per account this often. */
export const SPENT_LOG_MS = 3_600_000;

interface Spending {
  day: number;
  count: number;
  limit: number;
  checkedAt: number;
}

/** Seconds until the next midnight UTC, when every account's count starts again. */
export function secondsToUtcMidnight(nowMs: number): number {
  return Math.max(1, Math.ceil((DAY_MS - (nowMs % DAY_MS)) / 1000));
}

export class DeliveryBudget {
  /** Per account with hooks that matched today (bounded by the accounts; entries of past days are replaced). */
  private readonly spending = new Map<number, Spending>();
  private readonly logged = new Map<number, { at: number; dropped: number }>();

  constructor(
    private readonly store: Pick<WebhookStore, 'countSince'>,
    private readonly accounts: Pick<AccountStore, 'getAccount'>,
    private readonly limits: WebhookLimits,
    private readonly logger: Logger,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Whether the account may still be given deliveries today; when not, the drop is noted (and logged once an hour). */
  async allows(accountId: number): Promise<boolean> {
    const spending = await this.current(accountId);
    if (spending.count < spending.limit) return true;
    this.noteDropped(accountId, spending.limit);
    return false;
  }

  /** Whether the account's deliveries of today are not all spent (nothing noted: the wallet watcher asks it per tx). */
  async open(accountId: number): Promise<boolean> {
    const spending = await this.current(accountId);
    return spending.count < spending.limit;
  }

  /** Spends one delivery of the account's day; false (nothing spent) when the budget is used up. */
  async take(accountId: number): Promise<boolean> {
    if (!(await this.allows(accountId))) return false;
    this.spending.get(accountId)!.count++;
    return true;
  }

  private async current(accountId: number): Promise<Spending> {
    const now = this.nowMs();
    const day = Math.floor(now / DAY_MS);
    let spending = this.spending.get(accountId);
    if (!spending || spending.day !== day || now - spending.checkedAt >= REFRESH_MS) {
      const [stored, account] = await Promise.all([this.store.countSince(accountId, day * DAY_MS), this.accounts.getAccount(accountId)]);
      const limit = account ? this.limits.of(account.plan.name).deliveriesPerDay : 0;
      // Within a day the count only grows: what this process counted and the store may not have yet is kept.
      const count = spending && spending.day === day ? Math.max(spending.count, stored) : stored;
      spending = { day, count, limit, checkedAt: now };
      this.spending.set(accountId, spending);
    }
    return spending;
  }

  private noteDropped(accountId: number, limit: number): void {
    const now = this.nowMs();
    const last = this.logged.get(accountId);
    if (last && now - last.at < SPENT_LOG_MS) {
      last.dropped++;
      return;
    }
    this.logger.warn('webhooks: daily delivery budget spent; no deliveries or watches for the account until 00:00 UTC (logged once an hour)', {
      account: accountId, limit, droppedSinceLastLine: last?.dropped ?? 0,
    });
    this.logged.set(accountId, { at: now, dropped: 1 });
  }
}
