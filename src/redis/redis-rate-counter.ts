import { Redis } from 'ioredis';
import type { RateCounter, RateWindow } from '../core/limits/rate-counter.js';

/**
 * One round trip per request: increment (by the request's amount), start the window's expiry on the first hit, read what is left.
 * The PTTL repair covers a key that lost its expiry (e.g. restored without TTL) so it cannot block forever.
 */
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Counters shared by every API process through Redis, so N processes still allow the configured rate in total. */
export class RedisRateCounter implements RateCounter {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix: string) {
    // Fail fast: a request must not wait on a dead Redis (the plugin then lets it through).
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2_000, lazyConnect: false });
    this.redis.on('error', () => undefined);
  }

  async hit(key: string, windowMs: number, amount = 1): Promise<RateWindow> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs), String(amount))) as [number, number];
    return { count: Number(count), resetMs: Number(ttl) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
