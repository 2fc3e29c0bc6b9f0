// Cost of a dashboard password hash (scrypt N=2^17, r=8, p=1) and what the concurrency cap does to a burst of
// sign-ins: one hash alone, then 16 at once with the cap at 1, 2 and 4 (time to the last answer, and the peak
// resident memory of this process, since each running hash takes 128 MiB). Reference: SHA-256 of an API key.
import { createHash } from 'node:crypto';
import { PasswordHasher } from '../src/services/dashboard/password-hasher.js';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function run(): Promise<void> {
  const alone = new PasswordHasher(1);
  await alone.hash('warm-up password');
  const singles: number[] = [];
  for (let i = 0; i < 5; i++) singles.push(await timed(() => alone.hash(`password number ${i}`)));
  singles.sort((a, b) => a - b);
  const sha = await timed(async () => {
    for (let i = 0; i < 100_000; i++) createHash('sha256').update(`opk_${i}`).digest();
  });
  console.log(`password hash: one scrypt hash ${singles[2]!.toFixed(0)} ms (median of 5); an API key's SHA-256 ${((sha / 100_000) * 1000).toFixed(1)} µs (${Math.round((singles[2]! * 100_000) / sha).toLocaleString('en-US')}×)`);
  for (const cap of [1, 2, 4]) {
    const hasher = new PasswordHasher(cap);
    let peak = process.memoryUsage().rss;
    const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const ms = await timed(() => Promise.all(Array.from({ length: 16 }, (_, i) => hasher.hash(`burst ${i}`))));
    clearInterval(watch);
    console.log(`  16 sign-ins at once, cap ${cap}: last answer after ${ms.toFixed(0)} ms (${((16 * 1000) / ms).toFixed(1)} hashes/s), peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
