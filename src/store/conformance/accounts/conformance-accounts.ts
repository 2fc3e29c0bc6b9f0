/** Conformance: v3 plans, accounts, key hashes and usage counts behave the same on every engine and survive a reopen. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InvalidArgumentError } from '../../../core/domain/errors.js';
import { SCHEMA_VERSION } from '../../common/schema/schema-version.js';
import { withDb, withDbAt } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

const hash = (byte: number) => new Uint8Array(32).fill(byte);

export function accountTests(harness: StoreHarness): void {
  it('creates plans and accounts, refuses unknown plans and taken emails', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    await accounts.setPlan('free', 100, 1000);
    await accounts.setPlan('pro', 10_000, 1000);
    await accounts.setPlan('free', 150, 2000);
    assert.deepEqual(await accounts.getPlan('free'), { name: 'free', maxDailyRequests: 150, maxConcurrentRequests: 0, updatedAt: 2000 });
    assert.deepEqual((await accounts.listPlans()).map((p) => p.name), ['free', 'pro']);
    assert.equal(await accounts.getPlan('none'), null);

    const alice = await accounts.createAccount({ email: 'Alice@Example.com', plan: 'free', createdAt: 1000, periodEndsAt: 5000, willRenew: true });
    assert.equal(alice.email, 'alice@example.com');
    assert.deepEqual(alice.plan, { name: 'free', maxDailyRequests: 150, maxConcurrentRequests: 0, updatedAt: 2000 });
    assert.equal(alice.willRenew, true);
    assert.equal(alice.lastLoginAt, null);
    await assert.rejects(accounts.createAccount({ email: 'alice@example.COM', plan: 'pro', createdAt: 1, periodEndsAt: 2, willRenew: false }),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === 'email');
    await assert.rejects(accounts.createAccount({ email: 'bob@example.com', plan: 'gold', createdAt: 1, periodEndsAt: 2, willRenew: false }),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === 'plan');
    const bob = await accounts.createAccount({ email: 'bob@example.com', plan: 'pro', createdAt: 1, periodEndsAt: 2, willRenew: false });
    assert.notEqual(bob.id, alice.id);
    assert.equal((await accounts.findAccountByEmail('BOB@example.com'))?.id, bob.id);
    assert.equal(await accounts.findAccountByEmail('carol@example.com'), null);
    assert.deepEqual((await accounts.listAccounts()).map((a) => a.email), ['alice@example.com', 'bob@example.com']);
    assert.equal((await accounts.getAccount(bob.id))?.willRenew, false);
  }));

  it('plans carry max concurrent requests: set with the daily limit or kept when not given, read with the account', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    assert.deepEqual(await accounts.setPlan('eight', 1000, 10, 8), { name: 'eight', maxDailyRequests: 1000, maxConcurrentRequests: 8, updatedAt: 10 });
    assert.deepEqual(await accounts.setPlan('eight', 2000, 20), { name: 'eight', maxDailyRequests: 2000, maxConcurrentRequests: 8, updatedAt: 20 }, 'kept');
    assert.deepEqual(await accounts.setPlan('eight', 2000, 30, 16), { name: 'eight', maxDailyRequests: 2000, maxConcurrentRequests: 16, updatedAt: 30 });
    assert.deepEqual(await accounts.setPlan('eight', 2000, 40, 0), { name: 'eight', maxDailyRequests: 2000, maxConcurrentRequests: 0, updatedAt: 40 }, '0 = no limit');
    await accounts.setPlan('eight', 2000, 50, 32);
    const a = await accounts.createAccount({ email: 'c@x.io', plan: 'eight', createdAt: 1, periodEndsAt: 2, willRenew: true });
    assert.equal(a.plan.maxConcurrentRequests, 32);
    assert.equal((await accounts.getAccount(a.id))?.plan.maxConcurrentRequests, 32);
    // `free` is there out of the box (version 7), without a limit.
    assert.deepEqual((await accounts.listPlans()).map((p) => [p.name, p.maxConcurrentRequests]), [['eight', 32], ['free', 0]]);
  }));

  it('upgrading from schema version 5 keeps every plan, with no concurrency limit', () => withDbAt(harness, 5, async (db) => {
    // A plan as version 5 wrote it: no max_concurrent_requests column yet.
    await db.exec("INSERT INTO plans (name, max_daily_requests, updated_at) VALUES ('old', 500, 1)");
    const store = await db.reopen();
    await store.migrate();
    assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
    assert.deepEqual(await store.accounts().getPlan('old'), { name: 'old', maxDailyRequests: 500, maxConcurrentRequests: 0, updatedAt: 1 });
  }));

  it('stores key hashes by prefix, rotates atomically and revokes once', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    await accounts.setPlan('free', 100, 1);
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    const k1 = await accounts.addKey({ accountId: a.id, prefix: 'opk_aaaa', hash: hash(1), createdAt: 10 });
    await assert.rejects(accounts.addKey({ accountId: a.id, prefix: 'opk_aaaa', hash: hash(2), createdAt: 11 }),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === 'prefix');
    const found = await accounts.findKeyByPrefix('opk_aaaa');
    assert.deepEqual(found, { id: k1.id, accountId: a.id, prefix: 'opk_aaaa', hash: hash(1), createdAt: 10, revokedAt: null, name: null, lastUsedAt: null, expiresAt: null });
    const k2 = await accounts.rotateKey(k1.id, { accountId: a.id, prefix: 'opk_bbbb', hash: hash(3), createdAt: 20 }, 20);
    assert.equal((await accounts.findKeyByPrefix('opk_aaaa'))?.revokedAt, 20);
    assert.equal((await accounts.findKeyByPrefix('opk_bbbb'))?.id, k2.id);
    assert.equal(await accounts.revokeKey(k2.id, 30), true);
    assert.equal(await accounts.revokeKey(k2.id, 40), false, 'already revoked');
    assert.deepEqual((await accounts.listKeys(a.id)).map((k) => [k.prefix, k.revokedAt]), [['opk_aaaa', 20], ['opk_bbbb', 30]]);
    // A failed rotation (taken prefix) changes nothing: the old key stays active.
    const k3 = await accounts.addKey({ accountId: a.id, prefix: 'opk_cccc', hash: hash(4), createdAt: 50 });
    await assert.rejects(accounts.rotateKey(k3.id, { accountId: a.id, prefix: 'opk_bbbb', hash: hash(5), createdAt: 60 }, 60));
    assert.equal((await accounts.findKeyByPrefix('opk_cccc'))?.revokedAt, null);
    assert.equal(await accounts.findKeyByPrefix('opk_zzzz'), null);
  }));

  it('adds usage increments per account and day, and keeps them across a reopen', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    await accounts.setPlan('free', 100, 1);
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    assert.deepEqual(await accounts.addUsage([]), []);
    assert.deepEqual(await accounts.addUsage([{ accountId: a.id, day: '2024-01-01', count: 5 }, { accountId: a.id, day: '2024-01-02', count: 2 }]), [5, 2]);
    assert.deepEqual(await accounts.addUsage([{ accountId: a.id, day: '2024-01-02', count: 3 }]), [5]);
    // Two processes flushing concurrently: both increments land.
    await Promise.all([accounts.addUsage([{ accountId: a.id, day: '2024-01-03', count: 1 }]), accounts.addUsage([{ accountId: a.id, day: '2024-01-03', count: 4 }])]);
    assert.deepEqual(await accounts.getUsage(a.id, ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04']), [5, 5, 5, 0]);
    const reopened = await db.reopen();
    assert.deepEqual(await reopened.accounts().getUsage(a.id, ['2024-01-02', '2024-01-01']), [5, 5]);
    assert.equal((await reopened.accounts().findAccountByEmail('a@x.io'))?.id, a.id);
  }));
}
