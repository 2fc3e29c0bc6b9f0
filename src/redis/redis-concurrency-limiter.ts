import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../core/infrastructure/logger.js';
import { MemoryConcurrencyLimiter, once, type ConcurrencyLimiter, type Release } from '../core/limits/concurrency-limiter.js';

/**
 * A lease outlives any request we serve; it only matters when a process dies holding slots (kill -9, a lost
 * connection to Redis): its slots then free themselves after this long instead of blocking the account forever.
 */
export const LEASE_MS = 60_000;

/**
 * One round trip per acquire: a sorted set per key holds the requests in flight, scored by when their lease ends
 * (Redis's own clock, so API machines' clocks need not agree); expired leases are dropped, then a slot is taken
 * if fewer than the limit remain.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Slots shared by every API process through Redis, so N processes enforce one limit per account (or IP). If Redis
 * is unreachable the process counts its own requests only (logged once): a limiter outage must not become an API
 * outage.
 */
export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  private readonly redis: Redis;
  private readonly local = new MemoryConcurrencyLimiter();
  /** Unique per process: lease members are `{process}:{n}`. */
  private readonly processId = randomBytes(6).toString('hex');
  private seq = 0;
  private warned = false;

  constructor(url: string, private readonly logger: Logger, private readonly prefix = 'outpoint:inflight:') {
    // Connects on first use: a server whose plans set no concurrency limit never opens this connection.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: true });
    this.redis.on('error', () => undefined);
  }

  async acquire(key: string, limit: number): Promise<Release | null> {
    const member = `${this.processId}:${++this.seq}`;
    const redisKey = this.prefix + key;
    let taken: unknown;
    try {
      taken = await this.redis.eval(ACQUIRE_SCRIPT, 1, redisKey, String(limit), String(LEASE_MS), member);
    } catch (error) {
      if (!this.warned) this.logger.warn('concurrency slots in Redis unavailable; limiting in this process only', { error: (error as Error).message });
      this.warned = true;
      return this.local.tryAcquire(key, limit);
    }
    this.warned = false;
    if (Number(taken) !== 1) return null;
    return once(() => void this.redis.zrem(redisKey, member).catch(() => undefined));
  }

  async close(): Promise<void> {
    if (this.redis.status === 'wait') return this.redis.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
