/**
 * Before/after of the per-request paths issue 27 touched, in one process, so load from elsewhere hits both sides
 * alike (loopback HTTP figures on a shared machine cannot show a few per cent): a cached v3 key's check
 * (AccountService.cached) and the in-process v2 rate counter's hit, from this checkout and from another one (the
 * base), in alternating rounds. Prints the median and the fastest round of each side and after/base.
 *   OUTPOINT_BENCH_BASE=/path/to/base/checkout node --import tsx bench/hot-path-ab.bench.ts
 * The base checkout needs the same layout (src/services/accounts/, src/counters/) and its own node_modules (a link
 * to this one's will do).
 */
import { AccountService } from '../src/services/accounts/account-service.js';
import { MemoryRateCounter } from '../src/counters/memory-rate-counter.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

const BASE = process.env['OUTPOINT_BENCH_BASE'];
if (!BASE) throw new Error('set OUTPOINT_BENCH_BASE to the checkout to compare with');

const median = (x: readonly number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)]!;

async function alternate(label: string, rounds: number, base: () => Promise<number>, after: () => Promise<number>): Promise<void> {
  const b: number[] = [];
  const a: number[] = [];
  for (let r = 0; r < rounds; r++) {
    b.push(await base());
    a.push(await after());
  }
  // The fastest round of each side is the one least disturbed by other processes; the median shows the spread.
  console.log(`${label.padEnd(36)} median base ${median(b).toFixed(1)} ns, after ${median(a).toFixed(1)} ns (${(median(a) / median(b)).toFixed(3)}); ` +
    `fastest base ${Math.min(...b).toFixed(1)} ns, after ${Math.min(...a).toFixed(1)} ns (${(Math.min(...a) / Math.min(...b)).toFixed(3)})`);
}

async function keyCheck(): Promise<void> {
  const { AccountService: Base } = (await import(`${BASE}/src/services/accounts/account-service.ts`)) as { AccountService: typeof AccountService };
  const store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
  const accounts = store.accounts();
  await accounts.setPlan('p', 1_000_000_000, 1);
  const now = () => Math.floor(Date.now() / 1000);
  const after = new AccountService(accounts, now, 3_600_000);
  const base = new Base(accounts, now, 3_600_000);
  const { key } = await after.createAccount('ab@outpoint.test', 'p');
  await after.authenticate(key);
  await base.authenticate(key);
  const calls = 1_000_000;
  const time = (svc: { cached(k: string): unknown }) => async (): Promise<number> => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (!svc.cached(key)) throw new Error('not cached');
    return Number(process.hrtime.bigint() - started) / calls;
  };
  await alternate('cached v3 key check', 21, time(base), time(after));
  await store.close();
}

async function rateCounter(): Promise<void> {
  const { MemoryRateCounter: Base } = (await import(`${BASE}/src/counters/memory-rate-counter.ts`)) as { MemoryRateCounter: typeof MemoryRateCounter };
  const clients = Array.from({ length: 64 }, (_, i) => `203.0.113.${i}`);
  const calls = 500_000;
  const time = (counter: { hit(k: string, w: number): Promise<unknown> }) => async (): Promise<number> => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await counter.hit(clients[i & 63]!, 1000);
    return Number(process.hrtime.bigint() - started) / calls;
  };
  const base = new Base();
  const after = new MemoryRateCounter();
  await alternate('v2 rate counter hit (64 addresses)', 15, time(base), time(after));
  await base.close();
  await after.close();
}

await keyCheck();
await rateCounter();
