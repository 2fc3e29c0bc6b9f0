/**
 * Usage as the dashboard shows it: the account's plan and its requests per UTC day, counted exactly as
 * account_info's num_requests_used (the same counter and rows), for the overview's 30-day chart and the admin's
 * per-account table. Today and yesterday come from the live counter (with requests not yet flushed, and Redis's
 * shared count); older days from the store, which keeps them [accounts] usage_keep_days (at least 90).
 */
import type { AccountRecord, AccountStore } from '../../core/store/account-store.js';
import { currentPeriodEnd } from './account-service.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { utcDay } from '../../core/limits/utc-day.js';

export const CHART_DAYS = 30;

export interface DayCount {
  /** yyyy-mm-dd (UTC). */
  readonly day: string;
  readonly count: number;
}

export interface UsageOverview {
  readonly planName: string;
  readonly limit: number;
  readonly periodEndsAt: number;
  readonly willRenew: boolean;
  readonly today: number;
  readonly yesterday: number;
  /** Oldest first; the last entry is today. */
  readonly days: readonly DayCount[];
}

export interface AccountUsage {
  readonly accountId: number;
  readonly today: number;
  /** The last 30 UTC days including today (flushed counts). */
  readonly last30: number;
}

/** The UTC days from `count - 1` days ago to today, oldest first. */
export function lastDays(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => utcDay(now - (count - 1 - i) * 86_400));
}

export class UsageService {
  constructor(
    private readonly store: AccountStore,
    private readonly counter: UsageCounter,
    private readonly now: () => number,
  ) {}

  async overview(account: AccountRecord): Promise<UsageOverview> {
    const now = this.now();
    const days = lastDays(now, CHART_DAYS);
    const [stored, live] = await Promise.all([this.store.getUsage(account.id, days), this.counter.read(account.id, now)]);
    const counts = stored.map((count, i) => (i === days.length - 1 ? live.today : i === days.length - 2 ? live.yesterday : count));
    return {
      planName: account.plan.name,
      limit: account.plan.maxDailyRequests,
      periodEndsAt: currentPeriodEnd(account, now),
      willRenew: account.willRenew,
      today: live.today,
      yesterday: live.yesterday,
      days: days.map((day, i) => ({ day, count: counts[i]! })),
    };
  }

  /** Every account with requests in the last 30 days (accounts without any are left out). */
  async perAccount(): Promise<Map<number, AccountUsage>> {
    const days = lastDays(this.now(), CHART_DAYS);
    const today = days[days.length - 1]!;
    const rows = await this.store.listUsage(days[0]!, today);
    const result = new Map<number, AccountUsage>();
    for (const row of rows) {
      const entry = result.get(row.accountId) ?? { accountId: row.accountId, today: 0, last30: 0 };
      result.set(row.accountId, { ...entry, today: entry.today + (row.day === today ? row.count : 0), last30: entry.last30 + row.count });
    }
    return result;
  }
}
