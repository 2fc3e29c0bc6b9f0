/** Conformance: the realtime event log gives consecutive ids per network, reads a channel in order, and prunes by age and count. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LoggedChannelEvent } from '../../../core/store/event-log-store.js';
import { withDb } from '../conformance-chain.js';
import { BUCKET_IDS, bucketOf, PRUNE_IDS_PER_STATEMENT, sharedBucketOf } from '../../common/events/sql-event-log.js';
import { NETWORK_IDS } from '../../../core/domain/network.js';
import { dropMempoolStatsSql } from '../../common/schema/mempool-stats.js';
import { SCHEMA_VERSION } from '../../common/schema/schema-version.js';
import type { StoreHarness } from '../harness.js';

const T = 1_700_000_000;
const block = (n: number): LoggedChannelEvent => ({ channelKey: 'blockchain', event: 'block_update', payload: `{"type":"block","value":{"block_no":${n}}}` });
const paid = (script: string, n: number): LoggedChannelEvent => ({ channelKey: script, event: 'balance_update', payload: `{"type":"address","value":{"n":${n}}}` });

export function eventLogTests(harness: StoreHarness): void {
  it('gives each domain event the next id of its network; a channel reads its own events oldest first after a cursor', () => withDb(harness, async (db) => {
    const log = db.store.events();
    assert.deepEqual(await log.append('LTC', [[block(1)], [paid('aa', 1), block(2)]], T), [1, 2]);
    assert.deepEqual(await log.append('BTC', [[block(7)]], T), [1], 'ids are per network');
    assert.deepEqual(await log.append('LTC', [[paid('aa', 2)], [paid('bb', 3)], [paid('aa', 4)]], T + 1), [3, 4, 5]);
    const aa = await log.read('LTC', 'aa', 0, 100);
    assert.deepEqual(aa.events.map((e) => [e.eventId, e.event, JSON.parse(e.payload).value.n]), [[2, 'balance_update', 1], [3, 'balance_update', 2], [5, 'balance_update', 4]]);
    assert.deepEqual([aa.lastEventId, aa.prunedThrough], [5, 0]);
    assert.deepEqual((await log.read('LTC', 'aa', 3, 100)).events.map((e) => e.eventId), [5], 'after the cursor only');
    assert.deepEqual((await log.read('LTC', 'aa', 0, 2)).events.map((e) => e.eventId), [2, 3], 'at most the limit');
    assert.deepEqual((await log.read('LTC', 'blockchain', 0, 100)).events.map((e) => [e.eventId, e.time]), [[1, T], [2, T]]);
    const none = await log.read('DOGE', 'blockchain', 0, 100);
    assert.deepEqual([none.events.length, none.lastEventId, none.prunedThrough], [0, 0, 0]);
  }));

  it('one row per channel of a domain event even when a channel is named twice', () => withDb(harness, async (db) => {
    const log = db.store.events();
    await log.append('DOGE', [[paid('cc', 1), paid('cc', 1), block(1)]], T);
    assert.equal((await log.read('DOGE', 'cc', 0, 10)).events.length, 1);
  }));

  it('a shared body is written once per append under the last event carrying it, put back into every payload pointing to it, and pruned with the last of them', () => withDb(harness, async (db) => {
    const log = db.store.events();
    const body = (txid: string): LoggedChannelEvent => ({ channelKey: `tx:${txid}`, event: 'tx_summary', payload: `{"txid":"${txid}","outputs":[1,2,3]}`, shared: true });
    const touched = (script: string, txid: string): LoggedChannelEvent[] => [
      { channelKey: script, event: 'balance_update', payload: `{"type":"address","value":{"balance_change":"1","tx":{"$ref":"tx:${txid}"}}}` }, body(txid),
    ];
    // One tx touching three addresses, then a block, in one append; the same tx again later (confirmed).
    assert.deepEqual(await log.append('LTC', [touched('aa', 'f1'), touched('bb', 'f1'), touched('cc', 'f1'), [block(1)]], T), [1, 2, 3, 4]);
    assert.deepEqual(await log.append('LTC', [touched('aa', 'f1')], T + 5), [5]);
    const rows = await db.dump();
    const bodies = (rows['event_log'] as Record<string, unknown>[]).filter((r) => String(r['channel_key']).startsWith('tx:'));
    assert.deepEqual(bodies.map((r) => Number(r['event_id'])), [3, 5], 'one row per append, under its last event');
    assert.deepEqual(bodies.map((r) => Number(r['bucket'])), [3, 5].map(sharedBucketOf), 'in the shared bucket of its id');
    for (const key of ['aa', 'bb', 'cc']) {
      const page = await log.read('LTC', key, 0, 10);
      assert.deepEqual(page.events.map((e) => JSON.parse(e.payload)), (key === 'aa' ? [1, 5] : [1]).map(() => ({ type: 'address', value: { balance_change: '1', tx: { txid: 'f1', outputs: [1, 2, 3] } } })));
    }
    assert.equal(await log.prune('LTC', T, 4), 1, 'keeps the last 4 ids: event 1 goes, the body (id 3) stays');
    assert.deepEqual(JSON.parse((await log.read('LTC', 'bb', 0, 10)).events[0]!.payload).value.tx.outputs, [1, 2, 3]);
    // A payload logged before bodies were shared (no $ref) reads as it was written.
    await log.append('LTC', [[paid('dd', 9)]], T + 6);
    assert.equal(JSON.parse((await log.read('LTC', 'dd', 0, 10)).events[0]!.payload).value.n, 9);
  }));

  it('an append that crosses into the next id bucket logs a shared body in each bucket its events are in', () => withDb(harness, async (db) => {
    const log = db.store.events();
    const body = (txid: string): LoggedChannelEvent => ({ channelKey: `tx:${txid}`, event: 'tx_summary', payload: `{"txid":"${txid}"}`, shared: true });
    const touched = (script: string, txid: string): LoggedChannelEvent[] => [
      { channelKey: script, event: 'balance_update', payload: `{"value":{"tx":{"$ref":"tx:${txid}"}}}` }, body(txid),
    ];
    // Ids up to near the end of the first bucket, then an append whose events run from it into the next bucket.
    assert.deepEqual(await log.append('LTC', [[block(0)]], T), [1]);
    await db.exec(`UPDATE event_log_state SET last_id = ${BUCKET_IDS - 4}`);
    const ids = await log.append('LTC', [touched('aa', 'f1'), touched('bb', 'f1'), [block(1)], touched('cc', 'f1'), touched('cc', 'f2')], T);
    assert.deepEqual(ids.map(bucketOf), [0, 0, 0, 1, 1], 'the append crosses from bucket 0 into 1');
    for (const key of ['aa', 'bb', 'cc']) {
      const txs = (await log.read('LTC', key, 0, 10)).events.map((e) => JSON.parse(e.payload).value.tx.txid);
      assert.deepEqual(txs, key === 'cc' ? ['f1', 'f2'] : ['f1'], key);
    }
    const rows = (await db.dump())['event_log'] as Record<string, unknown>[];
    const bodies = rows.filter((r) => String(r['channel_key']).startsWith('tx:')).map((r) => [r['channel_key'], Number(r['bucket']), Number(r['event_id'])]);
    assert.deepEqual(bodies.sort(), [['tx:f1', sharedBucketOf(ids[1]!), ids[1]], ['tx:f1', sharedBucketOf(ids[3]!), ids[3]], ['tx:f2', sharedBucketOf(ids[4]!), ids[4]]].sort(),
      'f1 once in each bucket, under its last event there');
  }));

  it('prunes a long stretch of ids a range at a time, letting the event loop turn between ranges', () => withDb(harness, async (db) => {
    const log = db.store.events();
    const total = PRUNE_IDS_PER_STATEMENT * 2 + 500;
    await log.append('LTC', Array.from({ length: total }, (_, i) => [paid(`s${i % 7}`, i), ...(i % 3 === 0 ? [block(i)] : [])]), T);
    let turned = false;
    setImmediate(() => (turned = true));
    assert.equal(await log.prune('LTC', T, 100), (total - 100) + Math.ceil((total - 100) / 3), 'every row of the ids that go, across ranges');
    assert.ok(turned, 'the event loop turned while it pruned');
    const page = await log.read('LTC', 's3', 0, 1000);
    assert.equal(page.prunedThrough, total - 100);
    assert.ok(page.events.length > 0 && page.events.every((e) => e.eventId > total - 100));
    assert.equal((await log.read('LTC', 'blockchain', 0, 1000)).events[0]!.eventId, total - 99 + ((3 - ((total - 100) % 3)) % 3));
  }));

  it('a prune statement takes at most a hundred ids: 1,500 ids go in 15 statements with the event loop turning between', () => withDb(harness, async (db) => {
    const log = db.store.events();
    await log.append('LTC', Array.from({ length: 1_600 }, (_, i) => [paid(`s${i % 7}`, i), paid(`t${i % 5}`, i), block(i)]), T);
    // A statement of 2,000 ids (5-10 rows each for a mempool tx) held the event loop for 400-900 ms on a big index.
    let turns = 0;
    let pruning = true;
    const tick = (): void => {
      if (!pruning) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    assert.equal(await log.prune('LTC', T, 100), 1_500 * 3);
    pruning = false;
    assert.ok(turns >= 14, `the event loop turned ${turns} times while 1,500 ids were pruned`);
    assert.equal((await log.read('LTC', 'blockchain', 0, 1000)).prunedThrough, 1_500);
  }));

  it('prunes what is older than the cut-off or beyond the count kept, and records how far', () => withDb(harness, async (db) => {
    const log = db.store.events();
    for (let i = 0; i < 10; i++) await log.append('LTC', [[block(i)]], T + i);
    assert.equal(await log.prune('LTC', T + 3, 1000), 3, 'ids 1-3 were logged before T + 3');
    let page = await log.read('LTC', 'blockchain', 0, 100);
    assert.deepEqual([page.events[0]!.eventId, page.prunedThrough, page.lastEventId], [4, 3, 10]);
    assert.equal(await log.prune('LTC', T, 4), 3, 'keeps the last 4 ids');
    page = await log.read('LTC', 'blockchain', 0, 100);
    assert.deepEqual([page.events.map((e) => e.eventId), page.prunedThrough], [[7, 8, 9, 10], 6]);
    assert.equal(await log.prune('LTC', T, 4), 0, 'nothing more to do');
    assert.equal(await log.prune('LTC', T + 100, 1000), 4, 'all of it once everything is old');
    assert.deepEqual((await log.append('LTC', [[block(11)]], T + 101)), [11], 'ids keep growing after a prune');
    assert.equal((await log.read('LTC', 'blockchain', 0, 100)).prunedThrough, 10);
    assert.equal(await log.prune('BTC', T, 0), 0, 'a network with no log');
  }));

  it('appends from concurrent callers get distinct ids', () => withDb(harness, async (db) => {
    const log = db.store.events();
    const ids = (await Promise.all(Array.from({ length: 8 }, (_, i) => log.append('BTC', [[block(i)], [block(i)]], T)))).flat();
    assert.deepEqual([...ids].sort((a, b) => a - b), Array.from({ length: 16 }, (_, i) => i + 1));
  }));

  it('a channel reads in order across id buckets and across the groups of buckets one statement seeks', () => withDb(harness, async (db) => {
    const log = db.store.events();
    // Ids jump by skipping them in the allocator: the channel's events land 73 and 74 buckets apart, past a group of 64.
    const skip = (ids: number) => db.exec(`UPDATE event_log_state SET last_id = last_id + ${ids}`);
    assert.deepEqual(await log.append('LTC', [[paid('aa', 1)], [block(1)]], T), [1, 2]);
    await skip(BUCKET_IDS * 73);
    const [second] = await log.append('LTC', [[paid('aa', 2), block(2)], [paid('bb', 3)]], T);
    await skip(BUCKET_IDS + 7);
    const [third] = await log.append('LTC', [[paid('aa', 4)]], T);
    const ids = (after: number, limit: number) => log.read('LTC', 'aa', after, limit).then((p) => p.events.map((e) => e.eventId));
    assert.deepEqual(await ids(0, 100), [1, second, third]);
    assert.deepEqual(await ids(0, 2), [1, second], 'the limit holds across groups');
    assert.deepEqual(await ids(1, 1), [second]);
    assert.deepEqual(await ids(second!, 100), [third]);
    assert.deepEqual(await ids(third!, 100), []);
    assert.deepEqual((await log.read('LTC', 'blockchain', 0, 100)).events.map((e) => e.eventId), [2, second]);
    const rows = (await db.dump())['event_log'] as Record<string, unknown>[];
    assert.ok(rows.every((r) => Number(r['bucket']) === Math.floor(Number(r['event_id']) / BUCKET_IDS)), 'bucket = event_id / BUCKET_IDS');
  }));

  it('an event log written before id buckets (schema 12) reads the same after the upgrade', () => withDb(harness, async (db) => {
    await db.store.events().append('LTC', [[paid('aa', 1)]], T);
    // Schema 12's table, with a row of each kind: an address event pointing to a shared body, the body, a block.
    await db.exec('DROP TABLE event_log');
    await db.exec(`CREATE TABLE event_log (net ${db.engine === 'postgres' ? 'SMALLINT' : 'INTEGER'} NOT NULL, channel_key TEXT NOT NULL, event_id BIGINT NOT NULL, event TEXT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (net, channel_key, event_id))`);
    await db.exec('CREATE INDEX event_log_by_id ON event_log (net, event_id)');
    const net = `(SELECT net FROM event_log_state)`;
    await db.exec(`INSERT INTO event_log (net, channel_key, event_id, event, payload, created_at) VALUES
      (${net}, 'aa', 5000, 'balance_update', '{"type":"address","value":{"tx":{"$ref":"tx:f1"}}}', ${T}),
      (${net}, 'tx:f1', 5000, 'tx_summary', '{"txid":"f1"}', ${T}),
      (${net}, 'blockchain', 5001, 'block_update', '{"n":1}', ${T})`);
    await db.exec(`UPDATE event_log_state SET last_id = 5001`);
    // Version 12; what version 14 added goes too, and is made again on the way up; version 15's scripthash index stays (its migration finds it made).
    for (const id of NETWORK_IDS) for (const sql of dropMempoolStatsSql(db.engine, id)) await db.exec(sql);
    await db.setSchemaVersion(12);
    const store = await db.reopen();
    await store.migrate();
    assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
    const log = store.events();
    assert.deepEqual((await log.read('LTC', 'aa', 0, 10)).events.map((e) => [e.eventId, JSON.parse(e.payload).value.tx]), [[5000, { txid: 'f1' }]]);
    assert.deepEqual((await log.read('LTC', 'blockchain', 0, 10)).events.map((e) => e.eventId), [5001]);
    assert.deepEqual(await log.append('LTC', [[paid('aa', 2)]], T), [5002], 'ids go on');
  }));
}
