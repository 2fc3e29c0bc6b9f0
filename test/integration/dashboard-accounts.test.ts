/**
 * A signed-in user's sessions, keys and settings, and the administrator's operations, as services over real
 * stores (SQLite and PostgreSQL), with v3's key check (AccountService.authenticate) as the judge of what a key may
 * still do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnauthorizedError, ForbiddenError, InvalidCredentialsError } from '../../src/core/domain/errors.js';
import { tokenHash } from '../../src/services/accounts/one-time-token.js';
import { utcDay } from '../../src/core/limits/utc-day.js';
import { CLIENT, dashboardFixtures, type DashboardFixture } from '../helpers/dashboard-fixture.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const PASSWORD = 'a long enough password';
const { fixture, smtp } = dashboardFixtures(recordingLogger().logger);

async function user(f: DashboardFixture, email: string) {
  return f.d.registration.signUp({ email, password: PASSWORD }, CLIENT);
}

const refusal = (p: Promise<unknown>) => p.then(() => '', (e: unknown) => (e as Error).message);

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`dashboard accounts (${engine})`, () => {
    it('sessions: idle and absolute expiry, last use refreshed once a minute, listed and ended one by one', async () => {
      const f = await fixture(engine);
      const { token, active } = await user(f, 's@x.io');
      const start = f.clock.t;
      f.clock.t += 30;
      assert.equal((await f.d.sessions.resume(token))?.account.lastLoginAt, start, 'not rewritten within a minute');
      f.clock.t += 31;
      assert.equal((await f.d.sessions.resume(token))?.account.lastLoginAt, start + 61, 'a visit refreshes last_login_at');
      assert.equal((await f.store.auth().findSession(tokenHash(token)))?.lastSeenAt, start + 61);
      f.clock.t += 3599;
      assert.ok(await f.d.sessions.resume(token), 'used within the idle hour');
      f.clock.t += 3600;
      assert.equal(await f.d.sessions.resume(token), null, 'idle for an hour');
      // Absolute expiry: a session used every half hour still ends a day after sign-in.
      const second = await f.d.signIn.signIn('s@x.io', PASSWORD, CLIENT);
      if (second.kind !== 'signed-in') throw new Error('signed in expected');
      for (let i = 0; i < 47; i++) {
        f.clock.t += 1800;
        assert.ok(await f.d.sessions.resume(second.token), `half hour ${i + 1}`);
      }
      f.clock.t += 1800;
      assert.equal(await f.d.sessions.resume(second.token), null);
      const a = await f.d.signIn.signIn('s@x.io', PASSWORD, CLIENT);
      const b = await f.d.signIn.signIn('s@x.io', PASSWORD, { ip: '198.51.100.7', userAgent: 'Other browser' });
      if (a.kind !== 'signed-in' || b.kind !== 'signed-in') throw new Error('signed in expected');
      assert.notEqual(a.token, b.token, 'every sign-in makes a new session');
      const listed = await f.d.sessions.list(active.account.id);
      assert.deepEqual(listed.map((s) => s.userAgent), ['Mozilla/5.0 (test)', 'Other browser']);
      const { active: intruder } = await user(f, 'i@x.io');
      assert.equal(await f.d.sessions.end(intruder.account.id, b.active.session.id), false, "another account's session stays");
      assert.equal(await f.d.sessions.end(active.account.id, b.active.session.id), true);
      assert.equal(await f.d.sessions.resume(b.token), null);
      assert.ok(await f.d.sessions.resume(a.token));
    });

    it('CSRF tokens are bound to their session; pre-session tokens to their cookie', async () => {
      const f = await fixture(engine);
      const { token } = await user(f, 'c@x.io');
      const other = await user(f, 'd@x.io');
      const csrf = f.d.sessions.csrfToken(token);
      assert.equal(f.d.sessions.checkCsrf(token, csrf), true);
      assert.equal(f.d.sessions.checkCsrf(other.token, csrf), false);
      assert.equal(f.d.sessions.checkCsrf(token, undefined), false);
      const pre = f.d.sessions.preSessionToken();
      assert.equal(f.d.sessions.checkPreSession(pre.cookie, pre.token), true);
      assert.equal(f.d.sessions.checkPreSession(f.d.sessions.preSessionToken().cookie, pre.token), false);
      assert.equal(f.d.sessions.preSessionToken(pre.cookie).token, pre.token, 'a cookie keeps its token');
      assert.equal(f.d.sessions.checkPreSession(undefined, pre.token), false);
    });

    it('password change: the current password is confirmed, the other sessions end, this one stays', async () => {
      const f = await fixture(engine);
      const { token, active } = await user(f, 'p@x.io');
      const other = await f.d.signIn.signIn('p@x.io', PASSWORD, CLIENT);
      if (other.kind !== 'signed-in') throw new Error('signed in expected');
      assert.match(await refusal(f.d.passwords.changePassword(active.account, active.session.id, 'wrong password', 'new password 123', CLIENT)), /current password is wrong/);
      await f.d.passwords.changePassword(active.account, active.session.id, PASSWORD, 'new password 123', CLIENT);
      assert.ok(await f.d.sessions.resume(token));
      assert.equal(await f.d.sessions.resume(other.token), null);
      assert.equal((await f.d.signIn.signIn('p@x.io', 'new password 123', CLIENT)).kind, 'signed-in');
    });

    it('keys: named, shown once; rotation keeps the old key for the grace, revocation stops a key at once; usage per key', async () => {
      const f = await fixture(engine);
      const { active } = await user(f, 'k@x.io');
      const first = await f.d.keys.create(active.account, '  billing\u0007 ');
      assert.equal(first.record.name, 'billing');
      assert.match(first.key, /^opk_[A-Za-z0-9_-]{43}$/);
      assert.ok(!JSON.stringify(await f.store.accounts().listKeys(active.account.id)).includes(first.key.slice(12)), 'only the hash is stored');
      for (let i = 0; i < 3; i++) {
        const p = await f.accounts.authenticate(first.key);
        await f.usage.hit(p.account.id, f.clock.t, p.keyId);
      }
      let views = await f.d.keys.list(active.account);
      assert.deepEqual(views.map((v) => [v.key.name, v.state, v.requestsToday]), [['billing', 'active', 3]]);
      await f.usage.flush();
      assert.deepEqual(await f.store.accounts().getKeyUsage([first.record.id], utcDay(f.clock.t)), [3]);
      assert.ok((await f.store.accounts().findKeyByPrefix(first.record.prefix))!.lastUsedAt! > 0);

      const rotated = await f.d.keys.rotate(active.account, first.record.id);
      assert.equal(rotated.graceEndsAt, f.clock.t + 600);
      assert.equal(rotated.record.name, 'billing');
      assert.equal((await f.accounts.authenticate(first.key)).account.id, active.account.id, 'the old key works during the grace');
      assert.equal((await f.accounts.authenticate(rotated.key)).account.id, active.account.id);
      assert.match(await refusal(f.d.keys.rotate(active.account, first.record.id)), /Only a key in use/);
      f.clock.t += 600;
      assert.match(await refusal(f.accounts.authenticate(first.key)), /grace period has ended/);
      views = await f.d.keys.list(active.account);
      assert.deepEqual(views.map((v) => v.state), ['active', 'ended']);
      await f.d.keys.revoke(active.account, rotated.record.id);
      assert.match(await refusal(f.accounts.authenticate(rotated.key)), /revoked/);
      const { active: other } = await user(f, 'o@x.io');
      assert.match(await refusal(f.d.keys.revoke(other.account, first.record.id)), /No such key/);
      assert.match(await refusal(f.d.keys.create(active.account, 'x'.repeat(61))), /at most 60/);
      for (let i = 0; i < 20; i++) await f.d.keys.create(active.account, '');
      assert.match(await refusal(f.d.keys.create(active.account, '')), /20 keys in use/);
    });

    it('admin: refused to others; plan change and disabling reach the key check at once; no self-lockout', async () => {
      const f = await fixture(engine);
      const { active: admin } = await user(f, 'root@x.io');
      const boss = (await f.store.accounts().updateAccount(admin.account.id, { isAdmin: true }))!;
      const { token, active } = await user(f, 'u@x.io');
      const key = await f.d.keys.create(active.account, '');
      assert.ok((await refusal(f.d.admin.searchAccounts(active.account, '', 1))).includes('administrators'));
      await assert.rejects(f.d.admin.changePlan(active.account, active.account.id, 'free'), ForbiddenError);
      await f.d.admin.setPlan(boss, 'gold', { maxDailyRequests: 5, maxConcurrentRequests: 2 });
      assert.equal((await f.accounts.authenticate(key.key)).account.plan.name, 'free');
      await f.d.admin.changePlan(boss, active.account.id, 'gold');
      assert.equal((await f.accounts.authenticate(key.key)).account.plan.maxDailyRequests, 5, 'the new quota applies to the next request');
      await f.d.admin.setPlan(boss, 'gold', { maxDailyRequests: 7 });
      assert.equal((await f.accounts.authenticate(key.key)).account.plan.maxDailyRequests, 7);
      assert.equal((await f.accounts.authenticate(key.key)).account.plan.maxConcurrentRequests, 2, 'a limit not given stays');
      assert.deepEqual((await f.d.admin.searchAccounts(boss, 'U@', 1)).accounts.map((a) => a.email), ['u@x.io']);
      await f.d.admin.setDisabled(boss, active.account.id, true, f.clock.t);
      await assert.rejects(f.accounts.authenticate(key.key), UnauthorizedError);
      assert.equal(await f.d.sessions.resume(token), null, 'a disabled account is signed out');
      assert.match(await refusal(f.d.signIn.signIn('u@x.io', PASSWORD, CLIENT)), /disabled/);
      await f.d.admin.setDisabled(boss, active.account.id, false, f.clock.t);
      assert.equal((await f.accounts.authenticate(key.key)).account.id, active.account.id);
      assert.match(await refusal(f.d.admin.setDisabled(boss, boss.id, true, f.clock.t)), /own account/);
      assert.match(await refusal(f.d.admin.setAdmin(boss, boss.id, false)), /own administrator/);
      const invite = await f.d.admin.createInvite(boss, { plan: 'gold', expiresHours: 1 });
      assert.equal(invite.invite.createdBy, boss.id);
      assert.equal(await f.d.admin.revokeInvite(boss, invite.invite.id), true);
      assert.match(await f.d.admin.resetLink(boss, active.account.id), /\/dashboard\/reset\?token=/);
      await f.usage.flush();
      assert.equal((await f.d.admin.usage(boss)).get(active.account.id), undefined, 'authenticate alone counts nothing');
    });

    it('email change: password confirmed, verification to the new address, a notice to the old; deletion stops the keys', async () => {
      const f = await fixture(engine, { withMail: true });
      const old = `old-${engine}@x.io`;
      const { active } = await user(f, old);
      const key = await f.d.keys.create((await f.store.accounts().updateAccount(active.account.id, { emailVerifiedAt: 1 }))!, 'k');
      assert.match(await refusal(f.d.settings.changeEmail(active.account, 'wrong', `new-${engine}@x.io`, CLIENT)), /current password/);
      const changed = await f.d.settings.changeEmail(active.account, PASSWORD, `New-${engine}@x.io`, CLIENT);
      assert.deepEqual([changed.email, changed.emailVerifiedAt], [`new-${engine}@x.io`, null]);
      await smtp().waitFor((m) => m.to === old && /was changed/.test(m.subject));
      await smtp().waitFor((m) => m.to === `new-${engine}@x.io` && /Confirm/.test(m.subject));
      assert.match(await refusal(f.d.settings.deleteAccount(changed, 'wrong', CLIENT)), /current password/);
      await f.d.settings.deleteAccount(changed, PASSWORD, CLIENT);
      await assert.rejects(f.accounts.authenticate(key.key), /invalid API key/);
      await assert.rejects(f.d.signIn.signIn(`new-${engine}@x.io`, PASSWORD, CLIENT), InvalidCredentialsError);
    });

    it('housekeeping removes ended sessions, expired tokens and usage older than the kept days', async () => {
      const f = await fixture(engine);
      const { active } = await user(f, 'h@x.io');
      await f.d.passwords.resetLink(active.account);
      await f.store.accounts().addUsage([{ accountId: active.account.id, day: '2001-01-01', count: 1 }, { accountId: active.account.id, day: utcDay(f.clock.t), count: 2 }]);
      assert.deepEqual(await f.d.housekeeping.runOnce(), { auth: 0, usage: 1 });
      f.clock.t += 3601;
      assert.deepEqual(await f.d.housekeeping.runOnce(), { auth: 2, usage: 0 }, 'the idle session and the expired link');
      assert.equal((await f.store.accounts().listUsage('2000-01-01', '2100-01-01')).length, 1);
    });
  });
}
