/** Conformance: dashboard account changes (update, search, delete, invites), named keys with a grace, key usage, the upgrade to 7. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InvalidArgumentError } from '../../../core/domain/errors.js';
import type { AccountStore } from '../../../core/store/account-store.js';
import type { AuthStore } from '../../../core/store/auth-store.js';
import { SCHEMA_VERSION } from '../../common/schema/schema-version.js';
import { withDb, withDbAt } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

const hash = (byte: number) => new Uint8Array(32).fill(byte);
const field = (name: string) => (e: unknown) => e instanceof InvalidArgumentError && e.field === name;

async function twoAccounts(accounts: AccountStore) {
  await accounts.setPlan('pro', 10_000, 5);
  const a = await accounts.createAccount({ email: 'a_1@x.io', plan: 'free', createdAt: 100, periodEndsAt: 200, willRenew: true, isAdmin: true, emailVerifiedAt: 100, passwordHash: '$scrypt$h' });
  const b = await accounts.createAccount({ email: 'b%1@y.io', plan: 'pro', createdAt: 101, periodEndsAt: 201, willRenew: false });
  return { a, b };
}

async function invite(auth: AuthStore, byte: number, expiresAt = 1000) {
  return auth.createInvite({ tokenHash: hash(byte), plan: 'pro', isAdmin: false, createdAt: 10, expiresAt, createdBy: null });
}

export function accountChangeTests(harness: StoreHarness): void {
  it('the free plan exists out of the box; new accounts carry admin, verification and password', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    assert.deepEqual(await accounts.getPlan('free'), { name: 'free', maxDailyRequests: 1000, maxConcurrentRequests: 0, updatedAt: 0 });
    const { a, b } = await twoAccounts(accounts);
    assert.deepEqual({ ...a, plan: a.plan.name }, {
      id: a.id, email: 'a_1@x.io', plan: 'free', createdAt: 100, periodEndsAt: 200, willRenew: true, lastLoginAt: null,
      isAdmin: true, disabledAt: null, emailVerifiedAt: 100, totpEnabled: false,
    });
    assert.equal(b.isAdmin, false);
    assert.equal(b.emailVerifiedAt, null);
    assert.equal((await db.store.auth().getCredentials(a.id))?.passwordHash, '$scrypt$h');
    assert.equal((await db.store.auth().getCredentials(b.id))?.passwordHash, null);
    assert.equal(await db.store.auth().getCredentials(999), null);
  }));

  it('searches emails literally; updates accounts field by field, refusing taken emails and unknown plans', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    const { a, b } = await twoAccounts(accounts);
    // `_` and `%` are literal characters of the search text, not wildcards.
    assert.deepEqual((await accounts.searchAccounts('_1@', 10, 0)).map((x) => x.id), [a.id]);
    assert.deepEqual((await accounts.searchAccounts('a_', 10, 0)).map((x) => x.id), [a.id]);
    assert.deepEqual((await accounts.searchAccounts('X.IO', 10, 0)).map((x) => x.id), [a.id]);
    assert.deepEqual((await accounts.searchAccounts('', 10, 0)).map((x) => x.id), [a.id, b.id]);
    assert.deepEqual((await accounts.searchAccounts('', 1, 1)).map((x) => x.id), [b.id]);
    assert.deepEqual((await accounts.searchAccounts('%', 10, 0)).map((x) => x.id), [b.id]);
    const changed = await accounts.updateAccount(b.id, { plan: 'free', isAdmin: true, disabledAt: 300, emailVerifiedAt: 301, lastLoginAt: 302, email: 'B2@Y.io' });
    assert.deepEqual([changed?.plan.name, changed?.isAdmin, changed?.disabledAt, changed?.emailVerifiedAt, changed?.lastLoginAt, changed?.email], ['free', true, 300, 301, 302, 'b2@y.io']);
    const back = await accounts.updateAccount(b.id, { isAdmin: false, disabledAt: null });
    assert.deepEqual([back?.isAdmin, back?.disabledAt, back?.lastLoginAt], [false, null, 302]);
    await assert.rejects(accounts.updateAccount(b.id, { email: 'A_1@x.io' }), field('email'));
    await assert.rejects(accounts.updateAccount(b.id, { plan: 'gold', isAdmin: true }), field('plan'));
    assert.equal((await accounts.getAccount(b.id))?.isAdmin, false, 'a refused update changes nothing');
    assert.equal(await accounts.updateAccount(999, { isAdmin: true }), null);
    assert.equal((await accounts.updateAccount(a.id, {}))?.id, a.id);
  }));

  it('an invite makes one account: used, revoked and expired invites refuse and change nothing', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    await accounts.setPlan('pro', 10, 1);
    const first = await invite(auth, 1);
    const expired = await invite(auth, 2, 50);
    const revoked = await invite(auth, 3);
    assert.equal(await auth.revokeInvite(revoked.id, 20), true);
    assert.equal(await auth.revokeInvite(revoked.id, 21), false);
    const input = { plan: 'pro', createdAt: 60, periodEndsAt: 90, willRenew: true };
    const made = await accounts.createAccount({ ...input, email: 'new@x.io', inviteId: first.id });
    assert.deepEqual(await auth.findInvite(hash(1)), { ...first, usedAt: 60, usedBy: made.id });
    await assert.rejects(accounts.createAccount({ ...input, email: 'again@x.io', inviteId: first.id }), field('invite'));
    await assert.rejects(accounts.createAccount({ ...input, email: 'late@x.io', inviteId: expired.id }), field('invite'));
    await assert.rejects(accounts.createAccount({ ...input, email: 'gone@x.io', inviteId: revoked.id }), field('invite'));
    // A taken email rolls the invite's use back: it still works for someone else.
    const spare = await invite(auth, 4);
    await assert.rejects(accounts.createAccount({ ...input, email: 'NEW@x.io', inviteId: spare.id }), field('email'));
    assert.equal((await auth.findInvite(hash(4)))?.usedAt, null);
    assert.equal(await auth.revokeInvite(first.id, 70), false, 'a used invite cannot be revoked');
    assert.deepEqual((await accounts.listAccounts()).map((x) => x.email), ['new@x.io']);
    assert.deepEqual((await auth.listInvites()).map((i) => i.id), [spare.id, revoked.id, expired.id, first.id]);
    assert.equal(await auth.findInvite(hash(9)), null);
    await assert.rejects(invite(auth, 4), field('invite'));
  }));

  it('keys have names; rotation gives the old key a grace or revokes it; key usage and last use add up', () => withDb(harness, async (db) => {
    const accounts = db.store.accounts();
    const { a } = await twoAccounts(accounts);
    const k1 = await accounts.addKey({ accountId: a.id, prefix: 'opk_k1', hash: hash(1), createdAt: 10, name: 'billing' });
    assert.deepEqual([k1.name, k1.lastUsedAt, k1.expiresAt], ['billing', null, null]);
    const k2 = await accounts.rotateKey(k1.id, { accountId: a.id, prefix: 'opk_k2', hash: hash(2), createdAt: 20, name: 'billing' }, 20, 80);
    assert.deepEqual([(await accounts.findKeyByPrefix('opk_k1'))?.expiresAt, (await accounts.findKeyByPrefix('opk_k1'))?.revokedAt], [80, null]);
    await accounts.rotateKey(k2.id, { accountId: a.id, prefix: 'opk_k3', hash: hash(3), createdAt: 30 }, 30);
    assert.deepEqual([(await accounts.findKeyByPrefix('opk_k2'))?.expiresAt, (await accounts.findKeyByPrefix('opk_k2'))?.revokedAt], [null, 30]);
    assert.equal((await accounts.findKeyByPrefix('opk_k3'))?.name, null);
    assert.equal(await accounts.revokeKey(k1.id, 40), true, 'a key in its grace can be revoked at once');

    await accounts.addKeyUsage([], 1);
    await accounts.addKeyUsage([{ keyId: k1.id, day: '2024-01-01', count: 3 }, { keyId: k2.id, day: '2024-01-01', count: 1 }, { keyId: k1.id, day: '2024-01-02', count: 2 }], 500);
    await Promise.all([accounts.addKeyUsage([{ keyId: k1.id, day: '2024-01-02', count: 5 }], 400), accounts.addKeyUsage([{ keyId: k1.id, day: '2024-01-02', count: 1 }], 600)]);
    assert.deepEqual(await accounts.getKeyUsage([k2.id, k1.id, 999], '2024-01-02'), [0, 8, 0]);
    assert.deepEqual(await accounts.getKeyUsage([k1.id, k2.id], '2024-01-01'), [3, 1]);
    assert.equal((await accounts.findKeyByPrefix('opk_k1'))?.lastUsedAt, 600, 'last use only moves forward');
    assert.equal((await accounts.findKeyByPrefix('opk_k2'))?.lastUsedAt, 500);
    await accounts.addKeyUsage([{ keyId: k2.id, day: '2024-01-09', count: 0 }], 700);
    assert.equal((await accounts.findKeyByPrefix('opk_k2'))?.lastUsedAt, 700, 'a use without a count moves the last use');
    assert.equal((await db.dump())['api_key_usage']!.filter((r) => r['day'] === '2024-01-09').length, 0, 'and makes no count row');

    await accounts.addUsage([{ accountId: a.id, day: '2024-01-01', count: 4 }, { accountId: a.id, day: '2024-03-01', count: 7 }]);
    assert.deepEqual(await accounts.listUsage('2024-01-01', '2024-02-28'), [{ accountId: a.id, day: '2024-01-01', count: 4 }]);
    assert.equal(await accounts.pruneUsage('2024-01-02'), 3, 'one account day and two key days before it');
    assert.deepEqual(await accounts.getKeyUsage([k1.id], '2024-01-02'), [8]);
    assert.deepEqual(await accounts.listUsage('2000-01-01', '2099-01-01'), [{ accountId: a.id, day: '2024-03-01', count: 7 }]);
  }));

  it('deleting an account removes everything of it and nothing of others', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    const { a, b } = await twoAccounts(accounts);
    for (const [account, byte] of [[a, 1], [b, 2]] as const) {
      const key = await accounts.addKey({ accountId: account.id, prefix: `opk_${byte}`, hash: hash(byte), createdAt: 1 });
      await accounts.addUsage([{ accountId: account.id, day: '2024-01-01', count: byte }]);
      await accounts.addKeyUsage([{ keyId: key.id, day: '2024-01-01', count: byte }], 5);
      await auth.createSession({ tokenHash: hash(10 + byte), accountId: account.id, createdAt: 1, expiresAt: 99, ip: '::1', userAgent: 'ua' });
      await auth.createToken({ tokenHash: hash(20 + byte), purpose: 'reset', accountId: account.id, email: null, createdAt: 1, expiresAt: 99 });
      await auth.replaceRecoveryCodes(account.id, [hash(30 + byte)], 1);
    }
    const before = await db.dump();
    assert.equal(await accounts.deleteAccount(a.id), true);
    assert.equal(await accounts.deleteAccount(a.id), false);
    const after = await db.dump();
    for (const table of ['accounts', 'api_keys', 'api_usage', 'api_key_usage', 'sessions', 'account_tokens', 'recovery_codes']) {
      assert.equal(before[table]!.length, 2, table);
      assert.equal(after[table]!.length, 1, table);
      const owner = after[table]![0]!;
      assert.ok([owner['account_id'], owner['id']].includes(String(b.id)) || table === 'api_key_usage', `${table} keeps b's row`);
    }
    assert.equal((await accounts.getUsage(b.id, ['2024-01-01']))[0], 2);
  }));

  it(`upgrading from schema version 5: existing accounts count as verified, keep their keys, and the free plan appears`, () => withDbAt(harness, 5, async (db) => {
    // Rows as version 5 wrote them (the operator's CLI made accounts and keys then).
    await db.exec("INSERT INTO plans (name, max_daily_requests, updated_at) VALUES ('starter', 50, 1)");
    await db.exec('INSERT INTO accounts (email, plan, created_at, period_ends_at, will_renew) VALUES (?, ?, ?, ?, ?)', ['ops@x.io', 'starter', 1234, 9999, 1]);
    await db.exec("INSERT INTO api_keys (account_id, prefix, key_hash, created_at) SELECT id, 'opk_old', ?, 1300 FROM accounts WHERE email = 'ops@x.io'", [Buffer.from(hash(7))]);
    const store = await db.reopen();
    await store.migrate();
    assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
    const upgraded = (await store.accounts().findAccountByEmail('ops@x.io'))!;
    assert.deepEqual([upgraded.emailVerifiedAt, upgraded.isAdmin, upgraded.disabledAt, upgraded.totpEnabled], [1234, false, null, false]);
    assert.deepEqual(await store.accounts().getPlan('free'), { name: 'free', maxDailyRequests: 1000, maxConcurrentRequests: 0, updatedAt: 0 });
    assert.deepEqual(await store.accounts().getPlan('starter'), { name: 'starter', maxDailyRequests: 50, maxConcurrentRequests: 0, updatedAt: 1 });
    const key = (await store.accounts().findKeyByPrefix('opk_old'))!;
    assert.deepEqual([key.accountId, key.name, key.expiresAt, key.revokedAt, key.hash], [upgraded.id, null, null, null, hash(7)]);
  }));
}
