/**
 * An HTTP worker's per-client counters (`[http] processes` > 1): every one is the serving process's, asked over IPC
 * (counter-host.ts holds them: in its memory, or its Redis ones), so a client gets its whole limit once, whichever
 * worker its connections land on. Each call is one IPC round trip (~20-40 µs); the interfaces were async already
 * for Redis.
 */
import type { AttemptCount, AttemptCounter } from '../../../core/limits/attempt-counter.js';
import { once, type ConcurrencyLimiter, type Release } from '../../../core/limits/concurrency-limiter.js';
import type { RateCounterFactory, RateWindow } from '../../../core/limits/rate-counter.js';
import type { UsageCounter, UsageCounts } from '../../../core/limits/usage-counter.js';
import type { IpcCaller } from './ipc-calls.js';
import type { HttpCounters } from './http-counters.js';

/** Slots of the API's concurrency limits, or of realtime's connections per address (counted apart). */
export type SlotKind = 'api' | 'realtime';

export function ipcCounters(caller: IpcCaller): HttpCounters {
  return {
    rateCounters: ipcRateCounters(caller),
    concurrency: new IpcConcurrencyLimiter(caller, 'api'),
    realtimeSlots: new IpcConcurrencyLimiter(caller, 'realtime'),
    usage: () => new IpcUsageCounter(caller),
    attempts: () => new IpcAttemptCounter(caller),
  };
}

function ipcRateCounters(caller: IpcCaller): RateCounterFactory {
  return (prefix) => ({
    hit: (key: string, windowMs: number, amount = 1) => caller.call<RateWindow>('rate.hit', [prefix, key, windowMs, amount]),
    close: () => Promise.resolve(),
  });
}

class IpcConcurrencyLimiter implements ConcurrencyLimiter {
  constructor(private readonly caller: IpcCaller, private readonly kind: SlotKind) {}

  async acquire(key: string, limit: number): Promise<Release | null> {
    const slot = await this.caller.call<number | null>('slot.acquire', [this.kind, key, limit]);
    return slot === null ? null : once(() => this.caller.notify('slot.release', [slot]));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

class IpcAttemptCounter implements AttemptCounter {
  constructor(private readonly caller: IpcCaller) {}

  add(key: string, windowSeconds: number): Promise<AttemptCount> {
    return this.caller.call('attempt.add', [key, windowSeconds]);
  }

  peek(key: string): Promise<AttemptCount> {
    return this.caller.call('attempt.peek', [key]);
  }

  clear(key: string): Promise<void> {
    return this.caller.call('attempt.clear', [key]);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Requests per account and day, counted by the serving process (which flushes them to the store). */
class IpcUsageCounter implements UsageCounter {
  constructor(private readonly caller: IpcCaller) {}

  hit(accountId: number, now: number, keyId?: number): Promise<number> {
    return this.caller.call('usage.hit', [accountId, now, keyId]);
  }

  /** Never cached here: the count is the serving process's, so every request asks it (hit). */
  hitCached(): number | null {
    return null;
  }

  read(accountId: number, now: number): Promise<UsageCounts> {
    return this.caller.call('usage.read', [accountId, now]);
  }

  readKeys(keyIds: readonly number[], now: number): Promise<number[]> {
    return this.caller.call('usage.readKeys', [keyIds, now]);
  }

  touchKey(keyId: number, now: number): void {
    this.caller.notify('usage.touchKey', [keyId, now]);
  }

  flush(): Promise<void> {
    return this.caller.call('usage.flush', []);
  }

  /** The counter is the serving process's: it flushes and closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
