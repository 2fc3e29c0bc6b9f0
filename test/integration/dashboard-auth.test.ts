/**
 * The dashboard's sign-up, sign-in, second factor, reset and verification, as services over real stores (SQLite
 * and PostgreSQL) with mail through the real SMTP driver to a loopback SMTP server; links are followed from the
 * received mails. Every security rule of docs/dashboard.md has a case here or in dashboard-accounts.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../src/core/index.js';
import { InvalidCredentialsError, TooManyAttemptsError } from '../../src/core/domain/errors.js';
import { CLIENT, dashboardFixtures, linkParam, totpCode } from '../helpers/dashboard-fixture.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const PASSWORD = 'a long enough password';
const secrets = new Set<string>([PASSWORD]);
const { logger, lines } = recordingLogger();
const { fixture, smtp: sink } = dashboardFixtures(logger);
const error = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as Error);

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`dashboard sign-up and sign-in (${engine})`, () => {
    it('open sign-up without mail: signed in at once, last_login_at set, keys at once', async () => {
      const f = await fixture(engine);
      const { token, active } = await f.d.registration.signUp({ email: 'Open@Example.com', password: PASSWORD }, CLIENT);
      secrets.add(token);
      assert.equal(active.account.email, 'open@example.com');
      assert.equal(active.account.plan.name, 'free');
      assert.equal(active.account.lastLoginAt, f.clock.t);
      assert.equal(active.account.emailVerifiedAt, null);
      assert.equal((await f.d.sessions.resume(token))?.account.id, active.account.id);
      assert.equal(f.d.keys.blocker(active.account), null);
      const issued = await f.d.keys.create(active.account, 'first');
      secrets.add(issued.key);
      assert.equal((await f.accounts.authenticate(issued.key)).account.id, active.account.id);
      assert.ok(!(await f.store.auth().listSessions(active.account.id)).some((s) => JSON.stringify(s).includes(token)), 'only a hash is stored');
    });

    it('invite and closed registration: an invite gives its plan and role once; without one sign-up is refused', async () => {
      const f = await fixture(engine, { settings: { registration: 'invite' } });
      await f.store.accounts().setPlan('pro', 50_000, 1);
      assert.equal(((await error(f.d.registration.signUp({ email: 'x@x.io', password: PASSWORD }, CLIENT))) as InvalidArgumentError).field, 'invite');
      const { url, invite } = await f.d.invites.create({ plan: 'pro', isAdmin: true, expiresHours: 2 });
      const code = linkParam(url, 'invite');
      secrets.add(code);
      assert.match(url, /^https:\/\/outpoint\.test\/dashboard\/sign-up\?invite=/);
      assert.deepEqual((await f.d.registration.offer(code)).invite, invite);
      const { active } = await f.d.registration.signUp({ email: 'admin@x.io', password: PASSWORD, invite: code }, CLIENT);
      assert.deepEqual([active.account.plan.name, active.account.isAdmin], ['pro', true]);
      assert.equal((await f.d.registration.offer(code)).invite, null);
      assert.equal(((await error(f.d.registration.signUp({ email: 'again@x.io', password: PASSWORD, invite: code }, CLIENT))) as InvalidArgumentError).field, 'invite');
      const late = await f.d.invites.create({ plan: 'pro', expiresHours: 1 });
      f.clock.t += 3601;
      assert.equal((await f.d.registration.offer(linkParam(late.url, 'invite'))).invite, null, 'expired');
      const closed = await fixture(engine, { settings: { registration: 'closed' } });
      const refused = await error(closed.d.registration.signUp({ email: 'c@x.io', password: PASSWORD }, CLIENT));
      assert.match(refused!.message, /closed/);
    });

    it('sign-up checks the email, the password length and taken addresses, and is limited per network', async () => {
      const f = await fixture(engine);
      assert.equal(((await error(f.d.registration.signUp({ email: 'no-at-sign', password: PASSWORD }, CLIENT))) as InvalidArgumentError).field, 'email');
      assert.match((await error(f.d.registration.signUp({ email: 'a@x.io', password: 'short' }, CLIENT)))!.message, /at least 10 characters/);
      assert.match((await error(f.d.registration.signUp({ email: 'a@x.io', password: 'A@x.io' }, CLIENT)))!.message, /10 characters|email/);
      await f.d.registration.signUp({ email: 'a@x.io', password: PASSWORD }, CLIENT);
      assert.match((await error(f.d.registration.signUp({ email: 'A@X.io', password: PASSWORD }, CLIENT)))!.message, /exists/);
      for (let i = 0; i < 8; i++) await f.d.registration.signUp({ email: `n${i}@x.io`, password: PASSWORD }, CLIENT);
      assert.ok((await error(f.d.registration.signUp({ email: 'n9@x.io', password: PASSWORD }, CLIENT))) instanceof TooManyAttemptsError);
      await f.d.registration.signUp({ email: 'n9@x.io', password: PASSWORD }, { ...CLIENT, ip: '198.51.100.1' });
    });

    it('with mail: the verification link from the received mail confirms the address; keys wait for it', async () => {
      const f = await fixture(engine, { withMail: true });
      const { active } = await f.d.registration.signUp({ email: `verify-${engine}@x.io`, password: PASSWORD }, CLIENT);
      assert.match(f.d.keys.blocker(active.account)!, /Confirm your email/);
      assert.ok((await error(f.d.keys.create(active.account, ''))) instanceof InvalidArgumentError);
      const mail = await sink().waitFor((m) => m.to === `verify-${engine}@x.io` && /Confirm/.test(m.subject));
      assert.equal(mail.from, '"Outpoint" <outpoint@outpoint.test>');
      const link = mail.links.find((l) => l.includes('/dashboard/verify?token='))!;
      secrets.add(linkParam(link, 'token'));
      const verified = await f.d.registration.verify(linkParam(link, 'token'));
      assert.equal(verified.emailVerifiedAt, f.clock.t);
      assert.equal(f.d.keys.blocker(verified), null);
      assert.ok((await error(f.d.registration.verify(linkParam(link, 'token')))) instanceof InvalidCredentialsError, 'a link works once');
      assert.ok((await error(f.d.registration.verify('garbage'))) instanceof InvalidCredentialsError);
    });

    it('sign-in: one answer for unknown emails and wrong passwords, limits per email and per network, no count shown', async () => {
      const f = await fixture(engine);
      await f.d.registration.signUp({ email: 'known@x.io', password: PASSWORD }, CLIENT);
      const wrong = await error(f.d.signIn.signIn('known@x.io', 'not the password', CLIENT));
      const unknown = await error(f.d.signIn.signIn('nobody@x.io', PASSWORD, CLIENT));
      assert.ok(wrong instanceof InvalidCredentialsError && unknown instanceof InvalidCredentialsError);
      assert.equal(wrong.message, unknown.message);
      // Five failures per email (the fixture's limit): the sixth attempt is refused even with the right password.
      for (let i = 0; i < 4; i++) await error(f.d.signIn.signIn('known@x.io', 'not the password', CLIENT));
      for (let i = 0; i < 5; i++) await error(f.d.signIn.signIn('nobody@x.io', 'not the password', CLIENT));
      const knownLocked = await error(f.d.signIn.signIn('known@x.io', PASSWORD, { ...CLIENT, ip: '198.51.100.2' }));
      const unknownLocked = await error(f.d.signIn.signIn('nobody@x.io', PASSWORD, { ...CLIENT, ip: '198.51.100.2' }));
      assert.ok(knownLocked instanceof TooManyAttemptsError && unknownLocked instanceof TooManyAttemptsError);
      assert.equal(knownLocked.message, unknownLocked.message, 'the limit does not tell which emails exist');
      assert.doesNotMatch(knownLocked.message, /left|remaining|\d+ attempts/);
      f.clock.t += 901;
      const ok = await f.d.signIn.signIn('KNOWN@x.io', PASSWORD, CLIENT);
      assert.equal(ok.kind, 'signed-in');
      // Per network: 30 failures over many emails lock the network out, not the emails.
      for (let i = 0; i < 30; i++) await error(f.d.signIn.signIn(`spray${i}@x.io`, 'guess', { ...CLIENT, ip: '2001:db8:5::1' }));
      assert.ok((await error(f.d.signIn.signIn('known@x.io', PASSWORD, { ...CLIENT, ip: '2001:db8:5::77' }))) instanceof TooManyAttemptsError, 'same /64');
      assert.equal((await f.d.signIn.signIn('known@x.io', PASSWORD, { ...CLIENT, ip: '2001:db8:6::1' })).kind, 'signed-in');
    });

    it('second factor: enrolment by code, sign-in asks for it, codes work once, recovery codes once, admin reset', async () => {
      const f = await fixture(engine);
      const { active } = await f.d.registration.signUp({ email: 'totp@x.io', password: PASSWORD }, CLIENT);
      const enrolment = await f.d.totp.begin(active.account);
      secrets.add(enrolment.secret);
      assert.match(enrolment.uri, /^otpauth:\/\/totp\/outpoint\.test:totp%40x\.io\?/);
      assert.ok(!Buffer.from((await f.store.auth().getCredentials(active.account.id))!.totpSecret!).toString('latin1').includes(enrolment.secret), 'sealed at rest');
      assert.ok((await error(f.d.totp.confirm(active.account, '000000'))) instanceof InvalidArgumentError);
      const codes = await f.d.totp.confirm(active.account, totpCode(enrolment.secret, f.clock.t));
      codes.forEach((c) => secrets.add(c));
      assert.equal(codes.length, 10);
      assert.ok(codes.every((c) => /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/.test(c)));
      f.clock.t += 30;
      const step = await f.d.signIn.signIn('totp@x.io', PASSWORD, CLIENT);
      assert.equal(step.kind, 'second-factor');
      if (step.kind !== 'second-factor') return;
      secrets.add(step.pending);
      assert.ok((await error(f.d.signIn.secondFactor(step.pending, '123456', CLIENT))) instanceof InvalidCredentialsError);
      const code = totpCode(enrolment.secret, f.clock.t);
      const { token, active: signedIn } = await f.d.signIn.secondFactor(step.pending, code, CLIENT);
      assert.equal(signedIn.account.id, active.account.id);
      assert.ok(await f.d.sessions.resume(token));
      assert.ok((await error(f.d.signIn.secondFactor(step.pending, code, CLIENT))) instanceof InvalidCredentialsError, 'the step is used up');
      const again = await f.d.signIn.signIn('totp@x.io', PASSWORD, CLIENT);
      if (again.kind !== 'second-factor') throw new Error('second factor expected');
      assert.ok((await error(f.d.signIn.secondFactor(again.pending, code, CLIENT))) instanceof InvalidCredentialsError, 'a code is good once');
      assert.equal((await f.d.signIn.secondFactor(again.pending, codes[0]!.toLowerCase(), CLIENT)).active.account.id, active.account.id);
      const third = await f.d.signIn.signIn('totp@x.io', PASSWORD, CLIENT);
      if (third.kind !== 'second-factor') throw new Error('second factor expected');
      assert.ok((await error(f.d.signIn.secondFactor(third.pending, codes[0]!, CLIENT))) instanceof InvalidCredentialsError, 'a recovery code is good once');
      assert.equal(await f.d.totp.unusedRecoveryCodes(active.account.id), 9);
      f.clock.t += 301;
      assert.equal(await f.d.signIn.pendingValid(third.pending), false, 'the step expires after 5 minutes');
      const admin = (await f.store.accounts().updateAccount(active.account.id, { isAdmin: true }))!;
      const { active: other } = await f.d.registration.signUp({ email: 'other@x.io', password: PASSWORD }, CLIENT);
      await f.d.totp.confirm(other.account, totpCode((await f.d.totp.begin(other.account)).secret, f.clock.t));
      await f.d.admin.resetSecondFactor(admin, other.account.id);
      assert.equal((await f.d.signIn.signIn('other@x.io', PASSWORD, CLIENT)).kind, 'signed-in');
    });

    it('forgot password: a mail for known addresses only, the same answer for unknown; the link works once and ends sessions', async () => {
      const f = await fixture(engine, { withMail: true });
      const email = `reset-${engine}@x.io`;
      const { token: before } = await f.d.registration.signUp({ email, password: PASSWORD }, CLIENT);
      const known = await f.d.passwords.requestReset(email, CLIENT);
      const unknown = await f.d.passwords.requestReset(`nobody-${engine}@x.io`, CLIENT);
      assert.deepEqual(known, unknown);
      const mail = await sink().waitFor((m) => m.to === email && /Reset/.test(m.subject));
      await f.d.mail!.settled();
      assert.ok(!sink().mails.some((m) => m.to === `nobody-${engine}@x.io`));
      const token = linkParam(mail.links.find((l) => l.includes('/dashboard/reset?token='))!, 'token');
      secrets.add(token);
      assert.equal(await f.d.passwords.resetTokenValid(token), true);
      assert.match((await error(f.d.passwords.resetPassword(token, 'short', CLIENT)))!.message, /10 characters/);
      await f.d.passwords.resetPassword(token, 'a brand new password', CLIENT);
      assert.equal(await f.d.sessions.resume(before), null, 'sessions end with a reset');
      assert.ok((await error(f.d.passwords.resetPassword(token, 'another new password', CLIENT))) instanceof InvalidCredentialsError);
      assert.ok((await error(f.d.signIn.signIn(email, PASSWORD, CLIENT))) instanceof InvalidCredentialsError);
      assert.equal((await f.d.signIn.signIn(email, 'a brand new password', CLIENT)).kind, 'signed-in');
      // Per email: three reset mails an hour.
      await f.d.passwords.requestReset(email, CLIENT);
      await f.d.passwords.requestReset(email, CLIENT);
      assert.ok((await error(f.d.passwords.requestReset(email, CLIENT))) instanceof TooManyAttemptsError);
      // The operator's link (no mail needed) expires after 60 minutes.
      const link = await f.d.passwords.resetLink((await f.store.accounts().findAccountByEmail(email))!);
      f.clock.t += 3601;
      assert.equal(await f.d.passwords.resetTokenValid(linkParam(link, 'token')), false);
      const noMail = await fixture(engine);
      assert.equal(noMail.d.passwords.canMail, false);
      assert.ok((await error(noMail.d.passwords.requestReset(email, CLIENT))) instanceof InvalidArgumentError);
    });
  });
}

describe('dashboard logs', () => {
  it('a failed mail is logged without its link, and no password, key, token or code ever reaches the log', async () => {
    const f = await fixture('sqlite', { mailUrl: 'smtp://outpoint:mail-secret@127.0.0.1:1' });
    await f.d.registration.signUp({ email: 'dead@x.io', password: PASSWORD }, CLIENT);
    await f.d.mail!.settled();
    assert.ok(lines.some((l) => l.message === 'account mail not sent'));
    const text = JSON.stringify(lines);
    assert.ok(secrets.size > 10);
    for (const secret of secrets) assert.ok(!text.includes(secret), 'a secret reached the log');
    assert.doesNotMatch(text, /token=|mail-secret/);
  });
});
