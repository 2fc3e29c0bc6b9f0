/**
 * Attempt counters shared by every API process through Redis: `attempts:{key}` INCR with the window as expiry,
 * one round trip per attempt. If Redis is unreachable the process counts alone (in memory) and warns once: an
 * outage must not lock everyone out of the dashboard, nor lift the limits altogether.
 */
import { Redis } from 'ioredis';
import type { AttemptCount, AttemptCounter } from '../core/limits/attempt-counter.js';
import type { Logger } from '../core/infrastructure/logger.js';

/** INCR, set the expiry on the window's first attempt, return the count and the milliseconds left. */
const ADD_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

export class RedisAttemptCounter implements AttemptCounter {
  private readonly redis: Redis;
  private warned = false;

  constructor(url: string, private readonly fallback: AttemptCounter, private readonly logger: Logger) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    this.redis.on('error', () => undefined);
  }

  async add(key: string, windowSeconds: number): Promise<AttemptCount> {
    try {
      const [count, ttl] = (await this.redis.eval(ADD_SCRIPT, 1, redisKey(key), String(windowSeconds))) as [number, number];
      this.warned = false;
      return { count: Number(count), resetIn: Math.max(1, Math.ceil(Number(ttl) / 1000)) };
    } catch (error) {
      this.warnOnce(error);
      return this.fallback.add(key, windowSeconds);
    }
  }

  async peek(key: string): Promise<AttemptCount> {
    try {
      const [count, ttl] = await Promise.all([this.redis.get(redisKey(key)), this.redis.pttl(redisKey(key))]);
      return count === null || ttl <= 0 ? { count: 0, resetIn: 0 } : { count: Number(count), resetIn: Math.ceil(ttl / 1000) };
    } catch (error) {
      this.warnOnce(error);
      return this.fallback.peek(key);
    }
  }

  async clear(key: string): Promise<void> {
    await this.fallback.clear(key);
    try {
      await this.redis.del(redisKey(key));
    } catch (error) {
      this.warnOnce(error);
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private warnOnce(error: unknown): void {
    if (!this.warned) this.logger.warn('attempt counters in Redis unavailable; counting in this process only', { error: (error as Error).message });
    this.warned = true;
  }
}

function redisKey(key: string): string {
  return `attempts:${key}`;
}
