/**
 * Issue 27 point 4 at the service level, over SQLite and PostgreSQL: wrong second-factor codes count against the
 * email's limit and the password step no longer lifts it; at most five codes per pending sign-in; every password
 * check counts per network and per email (right ones too); changes to the second factor need the password and a
 * current code; a rotation with a grace counts against the 20-key limit, also when requests race.
 * (test/e2e/dashboard-hardening.test.ts checks the same against `outpoint serve`.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError, InvalidCredentialsError, TooManyAttemptsError } from '../../src/core/domain/errors.js';
import { MAX_ACTIVE_KEYS } from '../../src/services/accounts/api-key-service.js';
import { CODES_PER_SIGN_IN } from '../../src/services/dashboard/auth-context.js';
import { CLIENT, dashboardFixtures, totpCode, type DashboardFixture } from '../helpers/dashboard-fixture.js';
import { silentLogger } from '../../src/core/index.js';

const PASSWORD = 'a long enough password';
const { fixture } = dashboardFixtures(silentLogger);
const error = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as Error);

/** An account with the second factor on; resolves its secret. */
async function withTotp(f: DashboardFixture, email: string): Promise<string> {
  const { active } = await f.d.registration.signUp({ email, password: PASSWORD }, CLIENT);
  const { secret } = await f.d.settings.beginSecondFactor(active.account, PASSWORD, CLIENT);
  await f.d.totp.confirm(active.account, totpCode(secret, f.clock.t));
  f.clock.t += 30;
  return secret;
}

async function pending(f: DashboardFixture, email: string, ip: string): Promise<string> {
  const step = await f.d.signIn.signIn(email, PASSWORD, { ...CLIENT, ip });
  if (step.kind !== 'second-factor') throw new Error('second factor expected');
  return step.pending;
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`dashboard limits (${engine})`, () => {
    it('wrong codes count against the email from every network; the password step does not lift the count', async () => {
      // signin_failures_per_account 5 in the fixture.
      const f = await fixture(engine);
      const secret = await withTotp(f, 'codes@x.io');
      const answers: string[] = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        for (let round = 0; round < 3; round++) {
          const step = await error(pending(f, 'codes@x.io', ip));
          if (step instanceof TooManyAttemptsError) {
            answers.push('429');
            continue;
          }
          const e = await error(f.d.signIn.secondFactor(await pending(f, 'codes@x.io', ip), '000000', { ...CLIENT, ip }));
          answers.push(e instanceof TooManyAttemptsError ? '429' : e instanceof InvalidCredentialsError ? '401' : String(e));
        }
      }
      assert.deepEqual(answers.slice(0, 5), ['401', '401', '401', '401', '401']);
      assert.ok(answers.slice(5).every((a) => a === '429'), answers.join(' '));
      // Even the right code is refused while the email is limited; after the window a full sign-in lifts the count.
      f.clock.t += 901;
      const step = await pending(f, 'codes@x.io', '198.51.100.9');
      assert.equal((await f.d.signIn.secondFactor(step, totpCode(secret, f.clock.t), CLIENT)).active.account.email, 'codes@x.io');
      for (let i = 0; i < 4; i++) await error(f.d.signIn.secondFactor(await pending(f, 'codes@x.io', '198.51.100.9'), '000000', CLIENT));
      assert.ok((await error(f.d.signIn.secondFactor(await pending(f, 'codes@x.io', '198.51.100.9'), '000000', CLIENT))) instanceof InvalidCredentialsError);
    });

    it(`at most ${CODES_PER_SIGN_IN} codes per pending sign-in, also when sent at once; then the step is gone`, async () => {
      const f = await fixture(engine, { settings: { signinFailuresPerAccount: 100, signinFailuresPerIp: 100 } });
      const secret = await withTotp(f, 'step@x.io');
      const step = await pending(f, 'step@x.io', CLIENT.ip);
      for (let i = 1; i < CODES_PER_SIGN_IN; i++) {
        const e = await error(f.d.signIn.secondFactor(step, '000000', CLIENT));
        assert.equal(e?.message, 'That code is wrong or was already used.');
      }
      const last = await error(f.d.signIn.secondFactor(step, '000000', CLIENT));
      assert.equal(last?.message, 'This sign-in expired. Sign in again.');
      assert.equal(await f.d.signIn.pendingValid(step), false);
      assert.equal((await error(f.d.signIn.secondFactor(step, totpCode(secret, f.clock.t), CLIENT)))?.message, 'This sign-in expired. Sign in again.');
      // Twenty codes at once on a fresh step: the right one among them is the 20th; no more than five are looked at.
      f.clock.t += 30;
      const racing = await pending(f, 'step@x.io', CLIENT.ip);
      const codes = [...Array.from({ length: 19 }, () => '000000'), totpCode(secret, f.clock.t)];
      const results = await Promise.all(codes.map((c) => error(f.d.signIn.secondFactor(racing, c, CLIENT))));
      assert.equal(results.filter((r) => r === null).length, 0, 'the right code came after five tries');
    });

    it('every password check counts per network and per email, right or wrong', async () => {
      const f = await fixture(engine, { settings: { signinAttemptsPerIp: 6, signinAttemptsPerAccount: 4 } });
      await f.d.registration.signUp({ email: 'busy@x.io', password: PASSWORD }, CLIENT);
      for (let i = 0; i < 4; i++) assert.equal((await f.d.signIn.signIn('busy@x.io', PASSWORD, { ...CLIENT, ip: `192.0.2.${i}` })).kind, 'signed-in');
      assert.ok((await error(f.d.signIn.signIn('busy@x.io', PASSWORD, { ...CLIENT, ip: '192.0.2.77' }))) instanceof TooManyAttemptsError, 'per email');
      await f.d.registration.signUp({ email: 'b@x.io', password: PASSWORD }, CLIENT);
      await f.d.registration.signUp({ email: 'c@x.io', password: PASSWORD }, CLIENT);
      for (const email of ['b@x.io', 'b@x.io', 'b@x.io', 'c@x.io', 'c@x.io', 'c@x.io']) await f.d.signIn.signIn(email, PASSWORD, { ...CLIENT, ip: '192.0.2.200' });
      assert.ok((await error(f.d.signIn.signIn('nobody@x.io', 'x', { ...CLIENT, ip: '192.0.2.200' }))) instanceof TooManyAttemptsError, 'per network');
      const { active } = await f.d.registration.signUp({ email: 'd@x.io', password: PASSWORD }, CLIENT);
      for (let i = 0; i < 4; i++) await f.d.settings.beginSecondFactor(active.account, PASSWORD, { ...CLIENT, ip: `192.0.2.${50 + i}` });
      assert.ok((await error(f.d.settings.beginSecondFactor(active.account, PASSWORD, CLIENT))) instanceof TooManyAttemptsError, 'confirmations are checks too');
    });

    it('setting up, new recovery codes and turning off need the password and, once on, a current code', async () => {
      const f = await fixture(engine);
      const { active } = await f.d.registration.signUp({ email: 'own@x.io', password: PASSWORD }, CLIENT);
      assert.equal((await error(f.d.settings.beginSecondFactor(active.account, 'not my password', CLIENT)))?.message, 'Your current password is wrong.');
      const { secret } = await f.d.settings.beginSecondFactor(active.account, PASSWORD, CLIENT);
      const first = await f.d.totp.confirm(active.account, totpCode(secret, f.clock.t));
      const on = (await f.store.accounts().getAccount(active.account.id))!;
      f.clock.t += 30;
      assert.ok((await error(f.d.settings.newRecoveryCodes(on, PASSWORD, '', CLIENT))) instanceof InvalidCredentialsError, 'no code');
      assert.ok((await error(f.d.settings.newRecoveryCodes(on, 'wrong password', totpCode(secret, f.clock.t), CLIENT))) instanceof InvalidCredentialsError);
      const fresh = await f.d.settings.newRecoveryCodes(on, PASSWORD, totpCode(secret, f.clock.t), CLIENT);
      assert.equal(fresh.length, 10);
      assert.ok((await error(f.d.settings.disableSecondFactor(on, PASSWORD, first[0]!, CLIENT))) instanceof InvalidCredentialsError, 'replaced codes are gone');
      await f.d.settings.disableSecondFactor(on, PASSWORD, fresh[0]!, CLIENT);
      assert.equal((await f.store.accounts().getAccount(active.account.id))!.totpEnabled, false);
      // The wrong codes above counted as failures: 4 of the fixture's 5 for this email.
      await error(f.d.signIn.signIn('own@x.io', 'wrong', CLIENT));
      assert.ok((await error(f.d.signIn.signIn('own@x.io', PASSWORD, CLIENT))) instanceof TooManyAttemptsError);
    });

    it(`rotations with a grace count against the ${MAX_ACTIVE_KEYS}-key limit; racing creates stay within it`, async () => {
      const f = await fixture(engine);
      const { active } = await f.d.registration.signUp({ email: 'keys@x.io', password: PASSWORD }, CLIENT);
      let key = (await f.d.keys.create(active.account, 'rotated')).record;
      const refused: string[] = [];
      for (let i = 0; i < 25; i++) {
        const rotated = await error(f.d.keys.rotate(active.account, key.id).then((r) => (key = r.record)));
        if (rotated instanceof InvalidArgumentError) refused.push(rotated.message);
      }
      const live = async () => (await f.d.keys.list(active.account)).filter((v) => v.state !== 'ended').length;
      assert.equal(await live(), MAX_ACTIVE_KEYS);
      assert.equal(refused.length, 25 - (MAX_ACTIVE_KEYS - 1));
      assert.match(refused[0]!, /20 keys in use \(a rotated key counts until its grace ends\)/);
      f.clock.t += 601; // the fixture's grace: the rotated keys end
      assert.equal(await live(), 1);
      const made = await Promise.all(Array.from({ length: 30 }, () => error(f.d.keys.create(active.account, ''))));
      assert.equal(made.filter((m) => m === null).length, MAX_ACTIVE_KEYS - 1);
      assert.equal(await live(), MAX_ACTIVE_KEYS);
    });
  });
}
