import { Redis } from 'ioredis';
import type { Logger } from '../core/infrastructure/logger.js';
import type { LocalUsageCounter, UsageCounter, UsageCounts } from '../core/limits/usage-counter.js';
import { previousUtcDay, utcDay } from '../core/limits/utc-day.js';

/** Day keys outlive the day by two (yesterday's count is still asked for). */
const KEY_TTL_SECONDS = 3 * 86_400;

/**
 * One round trip per request. A missing key (first request of the day anywhere, or Redis restarted) is
 * seeded with the store's count before the increment, so a Redis restart does not reset anyone's day.
 */
const HIT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
return redis.call('INCR', KEYS[1])
`;

/**
 * Counters shared by every API process through Redis (`usage:{account}:{yyyy-mm-dd}`, INCR, 3-day expiry),
 * so N processes enforce one quota. The store stays the durable record: each process also counts its own
 * requests locally and adds them to the store every flush interval. If Redis is unreachable the local
 * (store-backed) count decides, and a warning is logged: a Redis outage must not become an API outage.
 */
export class RedisUsageCounter implements UsageCounter {
  private readonly redis: Redis;
  private warned = false;

  /** `local` is this process's store-backed count: flushed to the store, and what decides while Redis is down. */
  constructor(url: string, private readonly local: LocalUsageCounter, private readonly logger: Logger) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    this.redis.on('error', () => undefined);
  }

  async hit(accountId: number, now: number, keyId?: number): Promise<number> {
    const day = utcDay(now);
    const entry = await this.local.count(accountId, day);
    entry.pending++;
    if (keyId !== undefined) this.local.keyHit(keyId, day);
    try {
      const count = Number(await this.redis.eval(HIT_SCRIPT, 1, key(accountId, day), String(entry.stored + entry.pending - 1), String(KEY_TTL_SECONDS)));
      this.warned = false;
      return count;
    } catch (error) {
      this.warnOnce(error);
      return entry.stored + entry.pending;
    }
  }

  /** Every hit is a Redis round trip: there is no synchronous path. */
  hitCached(): number | null {
    return null;
  }

  async read(accountId: number, now: number): Promise<UsageCounts> {
    const local = await this.local.read(accountId, now);
    try {
      const [today, yesterday] = await this.redis.mget(key(accountId, utcDay(now)), key(accountId, previousUtcDay(now)));
      return { today: Math.max(local.today, Number(today ?? 0)), yesterday: Math.max(local.yesterday, Number(yesterday ?? 0)) };
    } catch (error) {
      this.warnOnce(error);
      return local;
    }
  }

  touchKey(keyId: number, now: number): void {
    this.local.touchKey(keyId, now);
  }

  /** Per-key counts are not shared live: each process adds its own to the store every flush interval. */
  readKeys(keyIds: readonly number[], now: number): Promise<number[]> {
    return this.local.readKeys(keyIds, now);
  }

  flush(): Promise<void> {
    return this.local.flush();
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private warnOnce(error: unknown): void {
    if (!this.warned) this.logger.warn('usage counters in Redis unavailable; counting in this process only', { error: (error as Error).message });
    this.warned = true;
  }
}

function key(accountId: number, day: string): string {
  return `usage:${accountId}:${day}`;
}
