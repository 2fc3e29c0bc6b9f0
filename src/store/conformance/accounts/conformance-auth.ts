/** Conformance: sessions, one-time tokens, second factors and recovery codes; the stored rows are the same on every engine. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { withDb } from '../conformance-chain.js';
import type { StoreHarness } from '../harness.js';

const hash = (byte: number) => new Uint8Array(32).fill(byte);
const hex = (byte: number) => Buffer.from(hash(byte)).toString('hex');

export function authTests(harness: StoreHarness): void {
  it('sessions: found by hash, touched forward only, listed and ended per account, pruned when idle or expired', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    const b = await accounts.createAccount({ email: 'b@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    const s1 = await auth.createSession({ tokenHash: hash(1), accountId: a.id, createdAt: 100, expiresAt: 1000, ip: '127.0.0.1', userAgent: 'Firefox' });
    assert.deepEqual(s1, { id: s1.id, accountId: a.id, createdAt: 100, lastSeenAt: 100, expiresAt: 1000, ip: '127.0.0.1', userAgent: 'Firefox' });
    const s2 = await auth.createSession({ tokenHash: hash(2), accountId: a.id, createdAt: 110, expiresAt: 200, ip: '::1', userAgent: 'Chromium' });
    const s3 = await auth.createSession({ tokenHash: hash(3), accountId: b.id, createdAt: 120, expiresAt: 1000, ip: '::1', userAgent: '' });
    await assert.rejects(auth.createSession({ tokenHash: hash(1), accountId: b.id, createdAt: 1, expiresAt: 2, ip: '', userAgent: '' }));
    assert.deepEqual(await auth.findSession(hash(2)), s2);
    assert.equal(await auth.findSession(hash(9)), null);
    await auth.touchSession(s1.id, 150);
    await auth.touchSession(s1.id, 140);
    assert.equal((await auth.findSession(hash(1)))?.lastSeenAt, 150);
    assert.deepEqual((await auth.listSessions(a.id)).map((s) => s.id), [s1.id, s2.id]);
    assert.equal(await auth.deleteSession(b.id, s1.id), false, "another account's session is out of reach");
    assert.equal(await auth.deleteSession(a.id, s2.id), true);
    assert.equal(await auth.findSession(hash(2)), null);
    const s4 = await auth.createSession({ tokenHash: hash(4), accountId: a.id, createdAt: 130, expiresAt: 1000, ip: '::1', userAgent: '' });
    assert.equal(await auth.deleteSessions(a.id, s4.id), 1);
    assert.deepEqual((await auth.listSessions(a.id)).map((s) => s.id), [s4.id]);
    // Pruning: s3 idle since 120 (cut at 125), s4 expires at 1000 (pruned at 1000 and later).
    assert.equal(await auth.prune(500, 125), 1);
    assert.equal(await auth.findSession(hash(3)), null);
    assert.ok(s3.id > 0);
    assert.equal(await auth.prune(1000, 0), 1);
    assert.equal(await auth.deleteSessions(a.id), 0);
  }));

  it('tokens: one purpose, unexpired, used once even by concurrent consumers', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    await auth.createToken({ tokenHash: hash(1), purpose: 'verify', accountId: a.id, email: 'a@x.io', createdAt: 10, expiresAt: 100 });
    await auth.createToken({ tokenHash: hash(2), purpose: 'reset', accountId: a.id, email: null, createdAt: 10, expiresAt: 100 });
    const verify = { accountId: a.id, purpose: 'verify', email: 'a@x.io', createdAt: 10, expiresAt: 100 };
    assert.deepEqual(await auth.findToken(hash(1), 'verify', 50), verify);
    assert.equal(await auth.findToken(hash(1), 'reset', 50), null, 'purpose must match');
    assert.equal(await auth.findToken(hash(1), 'verify', 100), null, 'expired at expiresAt');
    const both = await Promise.all([auth.consumeToken(hash(1), 'verify', 60), auth.consumeToken(hash(1), 'verify', 61)]);
    assert.deepEqual(both.filter((t) => t !== null), [verify]);
    assert.equal(await auth.findToken(hash(1), 'verify', 62), null);
    assert.equal(await auth.consumeToken(hash(2), 'reset', 100), null, 'expired');
    await auth.createToken({ tokenHash: hash(3), purpose: 'reset', accountId: a.id, email: null, createdAt: 10, expiresAt: 100 });
    await auth.deleteTokens(a.id, 'reset');
    assert.equal(await auth.findToken(hash(3), 'reset', 50), null);
    assert.equal(await auth.prune(100, 0), 1, 'the expired verify token goes');
  }));

  it('second factor: enrol, enable, steps used once, recovery codes used once, removal takes the codes too', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true });
    await auth.setTotp(a.id, { secret: hash(5), enabledAt: null });
    assert.deepEqual(await auth.getCredentials(a.id), { passwordHash: null, totpSecret: hash(5), totpEnabledAt: null, totpLastStep: null });
    assert.equal((await accounts.getAccount(a.id))?.totpEnabled, false, 'enrolment alone does not turn it on');
    await auth.setTotp(a.id, { secret: hash(5), enabledAt: 40 });
    assert.equal((await accounts.getAccount(a.id))?.totpEnabled, true);
    const same = await Promise.all([auth.useTotpStep(a.id, 1000), auth.useTotpStep(a.id, 1000)]);
    assert.deepEqual(same.sort(), [false, true]);
    assert.equal(await auth.useTotpStep(a.id, 999), false, 'an older step is a replay');
    assert.equal(await auth.useTotpStep(a.id, 1001), true);
    assert.equal((await auth.getCredentials(a.id))?.totpLastStep, 1001);

    await auth.replaceRecoveryCodes(a.id, [hash(1), hash(2)], 50);
    await auth.replaceRecoveryCodes(a.id, [hash(3), hash(4), hash(6)], 60);
    assert.equal(await auth.countUnusedRecoveryCodes(a.id), 3);
    assert.equal(await auth.useRecoveryCode(a.id, hash(1), 70), false, 'replaced codes are gone');
    const twice = await Promise.all([auth.useRecoveryCode(a.id, hash(3), 70), auth.useRecoveryCode(a.id, hash(3), 70)]);
    assert.deepEqual(twice.sort(), [false, true]);
    assert.equal(await auth.countUnusedRecoveryCodes(a.id), 2);

    const rows = (await db.dump())['recovery_codes']!;
    assert.deepEqual(rows, [
      { account_id: String(a.id), code_hash: hex(3), created_at: '60', used_at: '70' },
      { account_id: String(a.id), code_hash: hex(4), created_at: '60', used_at: null },
      { account_id: String(a.id), code_hash: hex(6), created_at: '60', used_at: null },
    ]);
    await auth.setTotp(a.id, null);
    assert.deepEqual(await auth.getCredentials(a.id), { passwordHash: null, totpSecret: null, totpEnabledAt: null, totpLastStep: null });
    assert.equal(await auth.countUnusedRecoveryCodes(a.id), 0);
  }));

  it('stores the dashboard rows exactly alike on every engine', () => withDb(harness, async (db) => {
    const [accounts, auth] = [db.store.accounts(), db.store.auth()];
    const a = await accounts.createAccount({ email: 'a@x.io', plan: 'free', createdAt: 7, periodEndsAt: 9, willRenew: false, isAdmin: true, emailVerifiedAt: 8, passwordHash: '$scrypt$ln=17,r=8,p=1$s$h' });
    await auth.setTotp(a.id, { secret: hash(9), enabledAt: 11 });
    await auth.useTotpStep(a.id, 12);
    await accounts.updateAccount(a.id, { lastLoginAt: 13, disabledAt: 14 });
    const key = await accounts.addKey({ accountId: a.id, prefix: 'opk_x', hash: hash(1), createdAt: 15, name: 'ci' });
    await accounts.addKeyUsage([{ keyId: key.id, day: '2024-05-06', count: 3 }], 16);
    await auth.createInvite({ tokenHash: hash(2), plan: 'free', isAdmin: true, createdAt: 17, expiresAt: 18, createdBy: a.id });
    await auth.createSession({ tokenHash: hash(3), accountId: a.id, createdAt: 19, expiresAt: 20, ip: '::1', userAgent: 'UA' });
    await auth.createToken({ tokenHash: hash(4), purpose: 'second_factor', accountId: a.id, email: null, createdAt: 21, expiresAt: 22 });
    const dump = await db.dump();
    const id = String(a.id);
    assert.deepEqual(dump['accounts'], [{
      id, email: 'a@x.io', plan: 'free', created_at: '7', period_ends_at: '9', will_renew: '0', last_login_at: '13', password_hash: '$scrypt$ln=17,r=8,p=1$s$h',
      is_admin: '1', disabled_at: '14', email_verified_at: '8', totp_secret: hex(9), totp_enabled_at: '11', totp_last_step: '12',
    }]);
    assert.deepEqual(dump['api_keys'], [{ id: String(key.id), account_id: id, prefix: 'opk_x', key_hash: hex(1), created_at: '15', revoked_at: null, name: 'ci', last_used_at: '16', expires_at: null }]);
    assert.deepEqual(dump['api_key_usage'], [{ key_id: String(key.id), day: '2024-05-06', count: '3' }]);
    assert.deepEqual(dump['invites']!.map(({ id: _, ...rest }) => rest), [{
      token_hash: hex(2), plan: 'free', is_admin: '1', created_at: '17', expires_at: '18', created_by: id, used_at: null, used_by: null, revoked_at: null,
    }]);
    assert.deepEqual(dump['sessions']!.map(({ id: _, ...rest }) => rest), [{ token_hash: hex(3), account_id: id, created_at: '19', last_seen_at: '19', expires_at: '20', ip: '::1', user_agent: 'UA' }]);
    assert.deepEqual(dump['account_tokens'], [{ token_hash: hex(4), purpose: 'second_factor', account_id: id, email: null, created_at: '21', expires_at: '22', used_at: null }]);
  }));
}
