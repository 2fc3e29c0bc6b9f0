/** The writer's bus: events are logged (numbered by the store) before they go out, in order, and still go out when the log fails. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryEventBus, silentLogger, type DomainEvent, type EventLogStore } from '../../core/index.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { BLOCKCHAIN_KEY } from './catalogue/event-channels.js';
import type { EventLogRenderer } from './event-log-entries.js';
import { EVENTS_PER_APPEND, LoggedEventBus } from './logged-event-bus.js';
import { MAX_QUEUED_EVENTS } from './queue-bound.js';

const removed = (txid: string): DomainEvent => ({ kind: 'tx_removed', network: 'LTC', txid, reason: 'confirmed' });
const block = (network: 'LTC' | 'BTC', height: number): DomainEvent => ({
  kind: 'block_connected', network, height, hash: String(height).padStart(64, '0'), prevHash: '', merkleRoot: '', time: 0, bits: 0, size: 1, txCount: 1,
  minerAddress: null, minerTag: null, receivedAt: 0,
});
const render: EventLogRenderer = (e) =>
  e.kind === 'block_connected' ? { network: e.network, entries: [{ channelKey: BLOCKCHAIN_KEY, event: 'block_update', payload: `{"type":"block","value":{"h":${e.height}}}` }] } : null;

function recorded(inner: MemoryEventBus): DomainEvent[] {
  const seen: DomainEvent[] = [];
  inner.subscribe((e) => seen.push(e));
  return seen;
}

/** The store's log, with the size of each append recorded. */
function countingAppends(log: EventLogStore): { appended: number[]; counting: EventLogStore } {
  const appended: number[] = [];
  const counting: EventLogStore = { ...log, read: log.read.bind(log), prune: log.prune.bind(log), append: (network, events, time) => {
    appended.push(events.length);
    return log.append(network, events, time);
  } };
  return { appended, counting };
}

describe('LoggedEventBus', () => {
  it('numbers logged events per network from the store, sends them after the log write, keeps the order of every event', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    const inner = new MemoryEventBus();
    const seen = recorded(inner);
    const bus = new LoggedEventBus(inner, store.events(), render, silentLogger, () => 1000);
    bus.publish(removed('a'));
    assert.equal(seen.length, 1, 'nothing queued: an event without channel events goes out at once');
    bus.publish(block('LTC', 1));
    bus.publish(removed('b'));
    bus.publish(block('BTC', 1));
    bus.publish(block('LTC', 2));
    assert.equal(seen.length, 1, 'logged first: nothing more out before the write');
    await bus.drain();
    assert.deepEqual(seen.map((e) => [e.kind, 'eventId' in e ? e.eventId : undefined]), [
      ['tx_removed', undefined], ['block_connected', 1], ['tx_removed', undefined], ['block_connected', 1], ['block_connected', 2],
    ]);
    const page = await store.events().read('LTC', BLOCKCHAIN_KEY, 0, 10);
    assert.deepEqual(page.events.map((e) => [e.eventId, e.time]), [[1, 1000], [2, 1000]]);
    bus.publish(block('LTC', 3));
    await bus.drain();
    assert.equal((seen.at(-1) as { eventId?: number }).eventId, 3, 'the next batch continues the sequence');
    await store.close();
  });

  it('a large batch is logged in writes of at most EVENTS_PER_APPEND, the event loop turning between them, in order', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    const { appended, counting } = countingAppends(store.events());
    const inner = new MemoryEventBus();
    const seen = recorded(inner);
    const bus = new LoggedEventBus(inner, counting, render, silentLogger, () => 1000);
    const total = EVENTS_PER_APPEND * 3 + 10;
    for (let h = 1; h <= total; h++) bus.publish(block('LTC', h));
    // A turn of the event loop (a request, a poll) gets in after the first write, before the last.
    let turned = -1;
    setImmediate(() => (turned = appended.length));
    await bus.drain();
    assert.deepEqual(appended, [EVENTS_PER_APPEND, EVENTS_PER_APPEND, EVENTS_PER_APPEND, 10]);
    assert.ok(turned >= 1 && turned < appended.length, `the event loop turned after write ${turned}`);
    assert.deepEqual(seen.map((e) => (e as { eventId?: number }).eventId), Array.from({ length: total }, (_, i) => i + 1));
    assert.deepEqual(seen.map((e) => (e.kind === 'block_connected' ? e.height : 0)), Array.from({ length: total }, (_, i) => i + 1));
    await store.close();
  });

  it('absorbed() holds the publisher while more than MAX_QUEUED_EVENTS wait, and lets it go once the log has caught up to the bound', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    const { appended, counting } = countingAppends(store.events());
    const bus = new LoggedEventBus(new MemoryEventBus(), counting, render, silentLogger, () => 1000);
    bus.publish(block('LTC', 1));
    let early = false;
    await bus.absorbed().then(() => (early = true));
    assert.ok(early, 'a short queue holds nobody');
    const over = 2 * EVENTS_PER_APPEND + 5;
    for (let h = 2; h <= MAX_QUEUED_EVENTS + over; h++) bus.publish(block('LTC', h));
    const total = MAX_QUEUED_EVENTS + over;
    let loggedWhenReleased: number[] = [];
    await bus.absorbed().then(() => (loggedWhenReleased = [...appended]));
    const logged = loggedWhenReleased.reduce((a, b) => a + b, 0);
    const beforeLastWrite = logged - (loggedWhenReleased.at(-1) ?? 0);
    assert.ok(total - logged <= MAX_QUEUED_EVENTS, `released with ${total - logged} still queued`);
    assert.ok(total - beforeLastWrite > MAX_QUEUED_EVENTS, `not released before the write that brought the queue to the bound (${total - beforeLastWrite} queued then)`);
    await bus.drain();
    assert.equal(appended.reduce((a, b) => a + b, 0), total, 'every event logged');
    await store.close();
  });

  it('a failing log write still sends the events, without ids, and says so once', async () => {
    const failing: EventLogStore = {
      append: () => Promise.reject(new Error('database down')),
      read: () => Promise.reject(new Error('unused')),
      prune: () => Promise.resolve(0),
    };
    const warnings: string[] = [];
    const inner = new MemoryEventBus();
    const seen = recorded(inner);
    const bus = new LoggedEventBus(inner, failing, render, { ...silentLogger, warn: (m) => warnings.push(m) });
    bus.publish(block('LTC', 1));
    await bus.drain();
    bus.publish(block('LTC', 2));
    await bus.drain();
    assert.deepEqual(seen.map((e) => ('eventId' in e ? e.eventId : 'none')), ['none', 'none']);
    assert.equal(warnings.length, 1);
  });
});
