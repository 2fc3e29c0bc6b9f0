/**
 * The serving process's side of the HTTP workers' counters (ipc-counters.ts): one set of counters for every worker,
 * so a client's limits are counted once whichever worker answers it. They are this process's own (memory, or Redis:
 * processCounters), plus realtime's connections per address, counted here in memory (a websocket holds its slot for
 * hours: Redis's request slots are leases of a minute). A worker that dies gives its slots back.
 */
import type { ChainStore } from '../../../core/index.js';
import type { AttemptCounter } from '../../../core/limits/attempt-counter.js';
import { MemoryConcurrencyLimiter, type ConcurrencyLimiter, type Release } from '../../../core/limits/concurrency-limiter.js';
import type { RateCounter } from '../../../core/limits/rate-counter.js';
import type { UsageCounter } from '../../../core/limits/usage-counter.js';
import type { HttpCounters } from './http-counters.js';
import type { CallMessage, ReplyMessage } from './ipc-calls.js';
import type { SlotKind } from './ipc-counters.js';

/**
 * What a worker may ask besides the counters: the merged /metrics text, that every worker forget cached key verdicts,
 * and that the others count a 401 of a client network (key-failure-limit.ts counts synchronously on the request path,
 * so each worker keeps a copy of the count and is told of every other worker's 401s; the asking worker's 401 waits
 * for the reply, which goes out after those messages).
 */
export interface HostExtras {
  readonly renderMetrics: () => Promise<string>;
  readonly accountsChanged: () => void;
  readonly keyFailure: (from: number, ip: string) => void;
}

export class CounterHost {
  private readonly rate = new Map<string, RateCounter>();
  private readonly concurrency: ConcurrencyLimiter;
  private readonly realtime = new MemoryConcurrencyLimiter();
  private readonly usage: UsageCounter;
  private readonly attempts: AttemptCounter;
  /** Slots held, by id, with the worker holding them. */
  private readonly slots = new Map<number, { readonly worker: number; readonly release: Release }>();
  private nextSlot = 1;
  /** Workers that ended: a slot granted to one after it ended is given back at once. */
  private readonly ended = new Set<number>();

  constructor(private readonly counters: HttpCounters, store: ChainStore, private readonly extras: HostExtras) {
    this.concurrency = counters.concurrency;
    this.usage = counters.usage(store.accounts());
    this.attempts = counters.attempts();
  }

  /** Answers one call of `worker` (a reply to send, or null when none is wanted). */
  async answer(worker: number, call: CallMessage): Promise<ReplyMessage | null> {
    try {
      const value = await this.run(worker, call.op, call.args);
      return call.id === 0 ? null : { type: 'reply', id: call.id, value };
    } catch (error) {
      return call.id === 0 ? null : { type: 'reply', id: call.id, error: (error as Error).message };
    }
  }

  /** A worker that ended: the requests and websockets it held slots for are gone. */
  forget(worker: number): void {
    this.ended.add(worker);
    for (const [id, slot] of this.slots) {
      if (slot.worker !== worker) continue;
      this.slots.delete(id);
      slot.release();
    }
  }

  async close(): Promise<void> {
    for (const worker of new Set([...this.slots.values()].map((s) => s.worker))) this.forget(worker);
    await Promise.all([...this.rate.values()].map((c) => c.close()));
    await this.usage.close();
    await this.attempts.close();
    await this.concurrency.close();
  }

  private async run(worker: number, op: CallMessage['op'], args: readonly unknown[]): Promise<unknown> {
    const a = args as readonly [never, never, never];
    switch (op) {
      case 'rate.hit': {
        const [prefix, key, windowMs, amount] = args as [string, string, number, number];
        let counter = this.rate.get(prefix);
        if (!counter) this.rate.set(prefix, (counter = this.counters.rateCounters(prefix)));
        return counter.hit(key, windowMs, amount);
      }
      case 'slot.acquire': {
        const [kind, key, limit] = args as [SlotKind, string, number];
        const release = await (kind === 'realtime' ? this.realtime : this.concurrency).acquire(key, limit);
        if (!release) return null;
        if (this.ended.has(worker)) {
          release();
          return null;
        }
        const id = this.nextSlot++;
        this.slots.set(id, { worker, release });
        return id;
      }
      case 'slot.release': {
        const slot = this.slots.get(args[0] as number);
        this.slots.delete(args[0] as number);
        return slot?.release();
      }
      case 'attempt.add': return this.attempts.add(a[0], a[1]);
      case 'attempt.peek': return this.attempts.peek(a[0]);
      case 'attempt.clear': return this.attempts.clear(a[0]);
      case 'usage.hit': return this.usage.hit(a[0], a[1], a[2]);
      case 'usage.read': return this.usage.read(a[0], a[1]);
      case 'usage.readKeys': return this.usage.readKeys(a[0], a[1]);
      case 'usage.touchKey': return this.usage.touchKey(a[0], a[1]);
      case 'usage.flush': return this.usage.flush();
      case 'metrics.render': return this.extras.renderMetrics();
      case 'accounts.changed': return this.extras.accountsChanged();
      case 'keyFailure.record': return this.extras.keyFailure(worker, a[0]);
    }
  }
}
