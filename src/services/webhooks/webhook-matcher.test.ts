/** The matcher holds a publisher back (EventBus.absorbed) while more events wait to be matched than MAX_QUEUED_EVENTS. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger, type DomainEvent } from '../../core/index.js';
import type { AccountStore } from '../../core/store/account-store.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { WebhookStore } from '../../core/store/webhook-store.js';
import { MAX_QUEUED_EVENTS } from '../events/queue-bound.js';
import { WebhookIndex } from './webhook-index.js';
import { WebhookLimits } from './webhook-limits.js';
import { WebhookMatcher } from './webhook-matcher.js';

// A disconnected block: an event the matcher takes up (it judges the watched txs at it), cheap with no watches.
const removed = (n: number): DomainEvent => ({ kind: 'block_disconnected', network: 'LTC', height: n, hash: n.toString(16).padStart(64, '0') });

describe('WebhookMatcher back-pressure', () => {
  it('absorbed() is pending while more than MAX_QUEUED_EVENTS wait, and resolves once they are matched', async () => {
    // The hook list loads only when the test says: the first pass (one event) is still running while the rest queue.
    let load: (() => void) | null = null;
    const store = {
      byNetwork: () => new Promise<never[]>((resolve) => (load = () => resolve([]))),
      watches: () => Promise.resolve([]),
    } as unknown as WebhookStore;
    const index = new WebhookIndex(store, ['LTC'], 60_000);
    const readers = new Map([['LTC', {} as NetworkReader]] as const);
    const matcher = new WebhookMatcher(store, index, readers, {} as AccountStore, new WebhookLimits({ maxHooks: 10, deliveriesPerDay: 10 }, []), () => undefined, silentLogger);
    let absorbed = false;
    matcher.onEvent(removed(0));
    await matcher.absorbed().then(() => (absorbed = true));
    assert.ok(absorbed, 'one event waiting holds nobody');
    for (let n = 1; n <= MAX_QUEUED_EVENTS + 1; n++) matcher.onEvent(removed(n));
    absorbed = false;
    const waiting = matcher.absorbed().then(() => (absorbed = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(absorbed, false, `${MAX_QUEUED_EVENTS + 1} events waiting hold the publisher`);
    load!();
    await waiting;
    await matcher.drain();
  });
});
