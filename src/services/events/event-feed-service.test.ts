/** The catch-up feed over a real event log (SQLite): pages, the address spelling, and 410 for cursors the log cannot answer. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventsExpiredError, InvalidArgumentError } from '../../core/domain/errors.js';
import { addressToScript, getNetworkParams, scriptToAddress } from '../../chains/addressing.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { NetworkRegistry } from '../shared/network-registry.js';
import { SyncGate } from '../shared/sync-gate.js';
import { storeSyncStatusSource, SyncStatusCache } from '../shared/sync-status-cache.js';
import { silentLogger } from '../../core/infrastructure/logger.js';
import { ClientBudget } from '../limits/client-budget.js';
import { addressKey, BLOCKCHAIN_KEY } from './catalogue/event-channels.js';
import { DEFAULT_FEED_PAGE_BYTES, EventFeedService } from './event-feed-service.js';

const params = getNetworkParams('LTCTEST', 'test');
const ADDRESS = scriptToAddress(params, Buffer.from(`0014${'ab'.repeat(20)}`, 'hex'))!;

async function feed(): Promise<{ store: SqliteStore; service: EventFeedService }> {
  const store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
  const networks = new Map([['LTCTEST' as const, { params, reader: store.network('LTCTEST') }]]);
  const registry = new NetworkRegistry(networks, new SyncGate(new SyncStatusCache(storeSyncStatusSource(networks)), () => 0));
  const budget = new ClientBudget({ perMinute: 0, counter: null, logger: silentLogger, name: 'feed', refusal: () => 'spent' });
  return { store, service: new EventFeedService(registry, store.events(), { pageBytes: DEFAULT_FEED_PAGE_BYTES, budget }) };
}

describe('EventFeedService', () => {
  it('answers a channel after a cursor as sent live, in pages; 410 below the pruned mark or above the last id', async () => {
    const { store, service } = await feed();
    const log = store.events();
    const key = addressKey(addressToScript(params, ADDRESS));
    const paid = (n: number) => ({ channelKey: key, event: 'balance_update', payload: JSON.stringify({ type: 'address', value: { value_received: `${n}`, tx: { txid: `t${n}` } } }) });
    const block = { channelKey: BLOCKCHAIN_KEY, event: 'block_update', payload: '{"type":"block","value":{"block_no":1}}' };
    await log.append('LTCTEST', [[paid(1)], [block], [paid(2)], [paid(3)]], 100);
    const channel = `address_ltctest_${ADDRESS.toUpperCase()}`;
    const first = await service.after('LTCTEST', channel, 0, 2);
    assert.deepEqual(first.events.map((e) => [e.eventId, e.data.event_id, e.data.value['address'], Object.keys(e.data.value)[0]]), [[1, 1, ADDRESS.toUpperCase(), 'address'], [3, 3, ADDRESS.toUpperCase(), 'address']],
      'the channel spelling first, as in the live payload');
    assert.deepEqual([first.cursor, first.hasMore, first.lastEventId], [3, true, 4]);
    const rest = await service.after('LTCTEST', channel, first.cursor);
    assert.deepEqual([rest.events.map((e) => e.eventId), rest.hasMore], [[4], false]);
    assert.deepEqual((await service.after('LTCTEST', 'blockchain_update_ltctest', 0)).events.map((e) => e.event), ['block_update']);

    await assert.rejects(service.after('LTCTEST', channel, 5), EventsExpiredError, 'above any id given: the log was reset');
    await log.prune('LTCTEST', 1000, 1000);
    await assert.rejects(service.after('LTCTEST', channel, 2), (e: unknown) => e instanceof EventsExpiredError && /resync/.test(e.message), 'older than the log keeps');
    assert.deepEqual((await service.after('LTCTEST', channel, 4)).events, [], 'at the pruned mark: nothing missed');
    await assert.rejects(service.after('LTCTEST', 'ticker_ltc_usd', 0), InvalidArgumentError);
    await assert.rejects(service.after('LTCTEST', 'address_btc_1abc', 0), InvalidArgumentError);
    await store.close();
  });

  it('a logged txid the index does not know (a store rebuilt since) keeps the shape: its txid, no inputs or outputs', async () => {
    const { store, service } = await feed();
    const key = addressKey(addressToScript(params, ADDRESS));
    const txid = 'cd'.repeat(32);
    await store.network('LTCTEST').setSyncStatus({ phase: 'ready', height: null, targetHeight: null, etaSeconds: 0, updatedAt: 1 });
    await store.events().append('LTCTEST', [[{ channelKey: key, event: 'balance_update', payload: JSON.stringify({ type: 'address', value: { value_received: '1.00000000', tx: { $txid: txid } } }) }]], 100);
    const page = await service.after('LTCTEST', `address_ltctest_${ADDRESS}`, 0);
    assert.deepEqual(page.events[0]!.data.value, { address: ADDRESS, value_received: '1.00000000', tx: { txid, inputs: [], outputs: [] } });
    await store.close();
  });
});
