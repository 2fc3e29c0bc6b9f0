import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainStore } from '../../../core/index.js';
import { MemoryConcurrencyLimiter } from '../../../core/limits/concurrency-limiter.js';
import type { UsageCounter } from '../../../core/limits/usage-counter.js';
import { MemoryAttemptCounter } from '../../../counters/memory-attempt-counter.js';
import { MemoryRateCounter } from '../../../counters/memory-rate-counter.js';
import { CounterHost } from './counter-host.js';
import { IpcCaller, type CallMessage, type CallsMessage, type RepliesMessage, type ReplyMessage } from './ipc-calls.js';
import { ipcCounters } from './ipc-counters.js';

/** Two workers' counters (ipc-counters.ts) wired to one host through in-memory "channels" batched per turn, as in the cluster. */
function cluster(): { host: CounterHost; workers: ReturnType<typeof ipcCounters>[]; callers: IpcCaller[] } {
  const concurrency = new MemoryConcurrencyLimiter();
  const usage = { close: () => Promise.resolve() } as unknown as UsageCounter;
  const host = new CounterHost(
    { rateCounters: () => new MemoryRateCounter(), concurrency, usage: () => usage, attempts: () => new MemoryAttemptCounter() },
    { accounts: () => ({}) } as unknown as ChainStore,
    { renderMetrics: () => Promise.resolve(''), accountsChanged: () => undefined, keyFailure: () => undefined },
  );
  const callers: IpcCaller[] = [];
  const workers = [1, 2].map((id) => {
    const caller: IpcCaller = new IpcCaller((message: CallsMessage) => {
      void Promise.all(message.calls.map((call: CallMessage) => host.answer(id, call))).then((replies) => {
        const answered = replies.filter((r): r is ReplyMessage => r !== null);
        setImmediate(() => caller.settleAll({ type: 'replies', replies: answered } satisfies RepliesMessage));
      });
    });
    callers.push(caller);
    return ipcCounters(caller);
  });
  return { host, workers, callers };
}

describe('CounterHost: one count for every worker', () => {
  it('counts a rate window once across workers, per prefix', async () => {
    const { workers, host } = cluster();
    const [a, b] = workers.map((w) => w.rateCounters('outpoint:v2:'));
    const counts = await Promise.all([a!.hit('1.2.3.4', 1000), b!.hit('1.2.3.4', 1000), a!.hit('1.2.3.4', 1000), b!.hit('1.2.3.4', 1000, 3)]);
    assert.deepEqual(counts.map((c) => c.count).sort((x, y) => x - y), [1, 2, 3, 6]);
    assert.equal((await workers[0]!.rateCounters('outpoint:web:').hit('1.2.3.4', 1000)).count, 1, 'another prefix counts apart');
    await host.close();
  });

  it('shares request slots, and gives back the slots of a worker that ended (also one granted after it ended)', async () => {
    const { workers, host } = cluster();
    const first = await workers[0]!.concurrency.acquire('ip', 2);
    const second = await workers[1]!.concurrency.acquire('ip', 2);
    assert.ok(first && second);
    assert.equal(await workers[1]!.concurrency.acquire('ip', 2), null, 'the third across both workers');
    host.forget(1);
    assert.ok(await workers[1]!.concurrency.acquire('ip', 2), "worker 1's slot is back");
    // Worker 1 ended: a slot it asked for is not kept.
    assert.equal(await workers[0]!.concurrency.acquire('other', 5), null);
    second();
    assert.ok(await workers[1]!.concurrency.acquire('ip', 2), "worker 2's released slot is back");
    await host.close();
  });

  it('counts realtime connections apart from request slots', async () => {
    const { workers, host } = cluster();
    assert.ok(await workers[0]!.realtimeSlots!.acquire('ip', 1));
    assert.equal(await workers[1]!.realtimeSlots!.acquire('ip', 1), null);
    assert.ok(await workers[1]!.concurrency.acquire('ip', 1), 'request slots are another count');
    await host.close();
  });

  it("counts the dashboard's attempts once across workers", async () => {
    const { workers, host } = cluster();
    const [a, b] = workers.map((w) => w.attempts());
    await a!.add('signin:ip', 60);
    await b!.add('signin:ip', 60);
    assert.equal((await a!.peek('signin:ip')).count, 2);
    await b!.clear('signin:ip');
    assert.equal((await a!.peek('signin:ip')).count, 0);
    await host.close();
  });

  it('fails the calls waiting when the channel closes, and every later one', async () => {
    const caller = new IpcCaller(() => undefined);
    const waiting = caller.call('rate.hit', []);
    caller.close('gone');
    await assert.rejects(waiting, /gone/);
    await assert.rejects(caller.call('rate.hit', []), /gone/);
    assert.equal(caller.waiting, 0);
  });
});
