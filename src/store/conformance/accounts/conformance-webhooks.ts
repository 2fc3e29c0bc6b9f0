/** Conformance: webhooks are limited per account, deliveries are stored once, claimed by one caller per lease, settled and re-sent. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { WebhookSpec } from '../../../core/store/webhook-store.js';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

async function account(db: Parameters<Parameters<typeof withDb>[1]>[0], email: string): Promise<number> {
  await db.store.accounts().setPlan('free', 1000, 1);
  return (await db.store.accounts().createAccount({ email, plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true })).id;
}

const spec = (accountId: number, over: Partial<WebhookSpec> = {}): WebhookSpec => ({
  accountId, network: 'LTCTEST', event: 'address', url: 'https://example.org/hook', secret: 's3cret', address: 'tltc1qxyz', script: '0014ab', txid: null, confirmations: null, ...over,
});

export function webhookTests(harness: StoreHarness): void {
  it('creates up to the limit per account, lists without other accounts, removes with the pending deliveries', () => withDb(harness, async (db) => {
    const hooks = db.store.webhooks();
    const alice = await account(db, 'a@x.io');
    const bob = await account(db, 'b@x.io');
    const first = await hooks.create(spec(alice), 100, 2);
    assert.ok(first);
    assert.deepEqual({ ...first, id: 0 }, { ...spec(alice), id: 0, createdAt: 100, descriptor: null, gap: null }, 'a hook not on a wallet has no descriptor nor gap');
    assert.ok(await hooks.create(spec(alice, { event: 'tx_confirmations', txid: 'ab'.repeat(32), confirmations: 6, address: null, script: null }), 101, 2));
    assert.equal(await hooks.create(spec(alice), 102, 2), null, 'the third is over the limit');
    assert.ok(await hooks.create(spec(bob, { event: 'block', address: null, script: null }), 103, 2));
    assert.deepEqual((await hooks.list(alice)).map((h) => h.event), ['address', 'tx_confirmations']);
    assert.deepEqual((await hooks.byNetwork('LTCTEST')).length, 3);
    assert.equal((await hooks.byNetwork('BTC')).length, 0);
    await hooks.enqueue([{ id: 'd1', hookId: first.id, event: 'address', body: '{}' }], 1000);
    assert.equal(await hooks.remove(bob, first.id), false, "not bob's");
    assert.equal(await hooks.remove(alice, first.id), true);
    assert.equal((await hooks.claim(5000, 1000, 10)).length, 0, 'its pending delivery went with it');
  }));

  it('stores a delivery once; one claimer per lease; a lapsed lease is claimed again; settles and re-sends', () => withDb(harness, async (db) => {
    const hooks = db.store.webhooks();
    const alice = await account(db, 'a@x.io');
    const hook = (await hooks.create(spec(alice), 100, 10))!;
    const made = Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, hookId: hook.id, event: 'address' as const, body: `{"n":${i}}` }));
    assert.equal(await hooks.enqueue(made, 1000), 6);
    assert.equal(await hooks.enqueue(made.slice(0, 2), 1001), 0, 'the same ids again add nothing');
    assert.equal(await hooks.countSince(alice, 1000), 6);
    const [a, b] = await Promise.all([hooks.claim(1000, 30_000, 4), hooks.claim(1000, 30_000, 4)]);
    const ids = [...a!, ...b!].map((d) => d.id).sort();
    assert.deepEqual(ids, ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'], 'every delivery claimed exactly once');
    assert.equal(a![0]!.url, 'https://example.org/hook');
    assert.equal(a![0]!.secret, 's3cret');
    assert.equal((await hooks.claim(2000, 30_000, 10)).length, 0, 'leased');
    await hooks.settle('d0', { state: 'delivered', nextAt: null, status: 200, error: null }, 3000);
    await hooks.settle('d1', { state: 'pending', nextAt: 10_000, status: 500, error: 'HTTP 500' }, 3000);
    await hooks.settle('d2', { state: 'failed', nextAt: null, status: null, error: 'refused' }, 3000);
    assert.deepEqual((await hooks.claim(10_000, 30_000, 10)).map((d) => [d.id, d.attempts, d.lastStatus, d.lastError]), [['d1', 1, 500, 'HTTP 500']],
      'the retry is due at its time; the others are still leased');
    assert.deepEqual((await hooks.claim(35_000, 30_000, 10)).map((d) => d.id).sort(), ['d3', 'd4', 'd5'], 'a claimer that died: its lease lapsed');
    assert.equal(await hooks.resend(alice, 'd2', 50_000), true);
    assert.equal(await hooks.resend(alice + 1, 'd0', 50_000), false, "another account's");
    assert.deepEqual((await hooks.claim(50_000, 1000, 10)).map((d) => d.id).sort(), ['d1', 'd2'], 're-sent, and d1 whose lease lapsed');
    const recent = await hooks.recent(alice, 10);
    assert.equal(recent.length, 6);
    assert.deepEqual(recent.find((d) => d.id === 'd0')!.state, 'delivered');
  }));

  it('a removed hook leaves no delivery: finished ones go too, none can be re-sent, a hookless one is dropped, never leased', () => withDb(harness, async (db) => {
    const hooks = db.store.webhooks();
    const alice = await account(db, 'a@x.io');
    const bob = await account(db, 'b@x.io');
    const gone = (await hooks.create(spec(alice), 100, 10))!;
    const live = (await hooks.create(spec(bob), 100, 10))!;
    await hooks.enqueue([{ id: 'old', hookId: gone.id, event: 'address', body: '{}' }], 1000);
    await hooks.settle('old', { state: 'failed', nextAt: null, status: 500, error: 'HTTP 500' }, 1000);
    assert.equal(await hooks.remove(alice, gone.id), true);
    assert.equal(await hooks.resend(alice, 'old', 2000), false, "a removed hook's delivery cannot be re-sent");
    await hooks.watch({ hookId: gone.id, txid: 'aa', target: 1, delivered: 0 }, 'LTCTEST');
    assert.deepEqual(await hooks.watches('LTCTEST'), [], 'no watch for a removed hook');
    // Left by an earlier version or a matcher racing the removal: deliveries of a hook that no longer exists.
    const orphan = (await hooks.create(spec(alice), 100, 10))!;
    await hooks.enqueue(Array.from({ length: 5 }, (_, i) => ({ id: `z${i}`, hookId: orphan.id, event: 'address' as const, body: '{}' })), 1000);
    await db.exec('DELETE FROM webhooks WHERE id = ?', [orphan.id]);
    await hooks.enqueue([{ id: 'bob1', hookId: live.id, event: 'address', body: '{}' }], 2000);
    assert.deepEqual((await hooks.claim(3000, 30_000, 1)).map((d) => d.id), ['bob1'], 'the live delivery is claimed first, though the orphans are older');
    assert.deepEqual((await hooks.claim(40_000, 30_000, 10)).map((d) => d.id), ['bob1'], 'only the live one, at its lease end; the orphans are gone');
    assert.deepEqual((await hooks.recent(alice, 10)).map((d) => d.id), []);
  }));

  it('deletes an account with its hooks, deliveries and watches', () => withDb(harness, async (db) => {
    const hooks = db.store.webhooks();
    const alice = await account(db, 'a@x.io');
    const bob = await account(db, 'b@x.io');
    const hook = (await hooks.create(spec(alice), 100, 10))!;
    const kept = (await hooks.create(spec(bob), 100, 10))!;
    await hooks.enqueue([{ id: 'a1', hookId: hook.id, event: 'address', body: '{}' }, { id: 'b1', hookId: kept.id, event: 'address', body: '{}' }], 1000);
    await hooks.settle('a1', { state: 'delivered', nextAt: null, status: 200, error: null }, 1000);
    await hooks.watch({ hookId: hook.id, txid: 'aa', target: 1, delivered: 0 }, 'LTCTEST');
    await hooks.watch({ hookId: kept.id, txid: 'bb', target: 1, delivered: 0 }, 'LTCTEST');
    assert.equal(await db.store.accounts().deleteAccount(alice), true);
    assert.equal(await db.store.accounts().getAccount(alice), null);
    assert.deepEqual(await hooks.list(alice), []);
    assert.deepEqual((await hooks.byNetwork('LTCTEST')).map((h) => h.id), [kept.id]);
    assert.deepEqual((await hooks.watches('LTCTEST')).map((w) => w.txid), ['bb']);
    assert.equal(await hooks.countSince(alice, 0), 0);
    assert.deepEqual((await hooks.recent(bob, 10)).map((d) => d.id), ['b1'], "another account's hooks and deliveries stay");
  }));

  it('keeps watches per hook and tx', () => withDb(harness, async (db) => {
    const hooks = db.store.webhooks();
    const alice = await account(db, 'a@x.io');
    const hook = (await hooks.create(spec(alice), 100, 10))!;
    await hooks.watch({ hookId: hook.id, txid: 'aa', target: 1, delivered: -1 }, 'LTCTEST');
    await hooks.watch({ hookId: hook.id, txid: 'aa', target: 1, delivered: 0 }, 'LTCTEST');
    await hooks.updateWatch(hook.id, 'aa', 1);
    assert.deepEqual(await hooks.watches('LTCTEST'), [{ hookId: hook.id, txid: 'aa', target: 1, delivered: 1 }]);
    assert.deepEqual(await hooks.watches('BTC'), []);
    await hooks.updateWatch(hook.id, 'aa', null);
    assert.deepEqual(await hooks.watches('LTCTEST'), []);
  }));
}
