/**
 * What a plan's max_concurrent_requests costs per request: one slot taken and given back, in process
 * (MemoryConcurrencyLimiter) and through a real loopback redis-server (RedisConcurrencyLimiter: one Lua call to take,
 * one ZREM to give back), next to the reference every Redis-configured v3 request already pays: the usage counter's
 * Lua round trip (RedisUsageCounter.hit). Sequential and 64 in flight, so both latency and throughput show.
 */
import { silentLogger } from '../src/core/index.js';
import { MemoryConcurrencyLimiter, type ConcurrencyLimiter } from '../src/core/limits/concurrency-limiter.js';
import { RedisConcurrencyLimiter } from '../src/redis/redis-concurrency-limiter.js';
import { RedisUsageCounter } from '../src/redis/redis-usage-counter.js';
import { StoreUsageCounter } from '../src/counters/store-usage-counter.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startRedis } from '../test/helpers/redis-server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const N = Number(process.env['BENCH_CONCURRENCY_OPS'] ?? 20_000);
const IN_FLIGHT = 64;

/** µs per operation with `parallel` operations in flight (each worker runs its share back to back). */
async function time(parallel: number, op: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 500; i++) await op();
  const started = performance.now();
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let i = 0; i < N / parallel; i++) await op();
  }));
  return ((performance.now() - started) * 1000) / N;
}

const slot = (limiter: ConcurrencyLimiter, key: string) => async (): Promise<void> => {
  const release = await limiter.acquire(key, 1_000);
  if (!release) throw new Error('refused: the bench limit is far above what it holds');
  release();
};

export async function run(): Promise<void> {
  const redis = await startRedis();
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-bench-conc-'));
  const store = new SqliteStore({ path: join(dir, 'store.db') });
  await store.migrate();
  const memory = new MemoryConcurrencyLimiter();
  const shared = new RedisConcurrencyLimiter(redis.url, silentLogger);
  const usage = new RedisUsageCounter(redis.url, new StoreUsageCounter(store.accounts(), silentLogger, 60_000), silentLogger);
  const now = Math.floor(Date.now() / 1000);
  try {
    console.log(`concurrency slots: ${N} take+give-back each, loopback redis-server`);
    for (const parallel of [1, IN_FLIGHT]) {
      const reference = await time(parallel, async () => void (await usage.hit(1, now)));
      const local = await time(parallel, slot(memory, 'account:1'));
      const remote = await time(parallel, slot(shared, 'account:2'));
      console.log(
        `  ${String(parallel).padStart(2)} in flight: usage counter (reference) ${reference.toFixed(1)} µs   ` +
          `memory slot ${local.toFixed(2)} µs   Redis slot ${remote.toFixed(1)} µs = ${(remote / reference).toFixed(2)} × the reference`,
      );
    }
  } finally {
    await shared.close();
    await usage.close();
    await store.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
