/**
 * Issue 27 point 4 against `outpoint serve` (real scrypt cost, SQLite), as an attacker drives it over HTTP from
 * several loopback source addresses (127.0.0.x are distinct clients to the server):
 * - wrong second-factor codes from three addresses, a fresh password step every five codes (which used to lift
 *   the email's count): 429 after the email's 10 failures, never 81 × 401;
 * - a pending sign-in takes five codes, then the code page sends the user back to the password;
 * - a flood of correct sign-ins from one address holds one hash: the others get 429 at once and a sign-in from
 *   another address goes through (it used to be 503 "busy"); correct sign-ins are limited per email too;
 * - setting up the second factor needs the password, new recovery codes the password and a current code;
 * - 25 rotations of a key leave 20 keys in use, not 26.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../helpers/dashboard-fixture.js';
import { FormClient, type Answer } from '../helpers/form-client.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

const PASSWORD = 'correct horse battery staple';
let serve: ServeProcess;

before(async () => {
  serve = await startServeWithBody(`[accounts]
registration = "open"
signin_attempts_per_account = 12
signin_attempts_per_ip = 40`, { readyPath: '/dashboard/sign-in' });
});
after(async () => serve?.stop());

const client = (n: number) => new FormClient(serve.url, `127.0.0.${n}`);

async function signUp(email: string, from = 1): Promise<FormClient> {
  const c = client(from);
  await c.get('/dashboard/sign-up');
  assert.equal((await c.post('/dashboard/sign-up', { email, password: PASSWORD })).status, 303);
  return c;
}

/** The password step: 303 to the code page (second factor on) or the overview, else the page's status. */
async function passwordStep(c: FormClient, email: string): Promise<Answer> {
  await c.get('/dashboard/sign-in');
  return c.post('/dashboard/sign-in', { email, password: PASSWORD, next: '/dashboard' });
}

/** Turns the second factor on for a signed-in client; resolves the secret. */
async function enableTotp(c: FormClient): Promise<string> {
  await c.get('/dashboard/security');
  const enrol = await c.post('/dashboard/security/2fa/start', { current: PASSWORD });
  assert.equal(enrol.status, 200);
  const secret = /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(enrol.body)![1]!;
  assert.equal((await c.post('/dashboard/security/2fa/confirm', { code: totpCode(secret, Math.floor(Date.now() / 1000)) })).status, 200);
  return secret;
}

describe('dashboard sign-in and second factor against outpoint serve', () => {
  it('wrong codes from three addresses reach the email\'s limit (429) although each password step succeeded', async () => {
    await enableTotp(await signUp('codes@outpoint.test'));
    const statuses: number[] = [];
    for (const from of [11, 12, 13]) {
      const c = client(from);
      for (let tried = 0; tried < 27;) {
        const step = await passwordStep(c, 'codes@outpoint.test');
        if (step.status !== 303) {
          statuses.push(step.status);
          tried++;
          continue;
        }
        await c.get('/dashboard/sign-in/code');
        for (let i = 0; i < 5 && tried < 27; i++, tried++) {
          const answer = await c.post('/dashboard/sign-in/code', { code: '000000', next: '/dashboard' });
          statuses.push(answer.status);
          if (answer.status !== 401) break;
        }
      }
    }
    const wrong = statuses.filter((s) => s === 401).length;
    assert.ok(statuses.includes(429), `never limited: ${statuses.join(' ')}`);
    assert.ok(wrong <= 10, `${wrong} wrong codes answered before the limit (signin_failures_per_account = 10)`);
  });

  it('a pending sign-in takes five codes, then the password is asked again', async () => {
    await enableTotp(await signUp('step@outpoint.test', 2));
    const c = client(21);
    assert.equal((await passwordStep(c, 'step@outpoint.test')).location, '/dashboard/sign-in/code');
    await c.get('/dashboard/sign-in/code');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await c.post('/dashboard/sign-in/code', { code: '000000', next: '/dashboard' }));
    assert.deepEqual(answers.map((a) => a.status), [401, 401, 401, 401, 303]);
    assert.equal(answers[4]!.location, '/dashboard/sign-in?expired=1');
    assert.equal((await c.get('/dashboard/sign-in/code')).location, '/dashboard/sign-in?expired=1');
  });

  it('a flood of correct sign-ins holds one hash: the rest get 429 at once, another address gets in; every sign-in counts', async () => {
    await signUp('flood@outpoint.test', 3);
    await signUp('victim@outpoint.test', 4);
    const flooders = Array.from({ length: 30 }, () => client(31));
    await Promise.all(flooders.map((c) => c.get('/dashboard/sign-in')));
    const flood = Promise.all(flooders.map((c) => c.post('/dashboard/sign-in', { email: 'flood@outpoint.test', password: PASSWORD, next: '/dashboard' })));
    const victim = client(41);
    const started = Date.now();
    const own = await passwordStep(victim, 'victim@outpoint.test');
    const answers = await flood;
    assert.equal(own.status, 303, `the other address got ${own.status}`);
    const signedIn = answers.filter((a) => a.status === 303).length;
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(signedIn >= 1 && signedIn <= 2, `${signedIn} of the flood hashed`);
    assert.equal(refused.length, 30 - signedIn, answers.map((a) => a.status).join(' '));
    assert.equal(refused[0]!.retryAfter, '1');
    assert.match(refused[0]!.body, /being checked/);
    assert.ok(answers.every((a) => a.status !== 503), 'nobody was told the server is busy');
    assert.ok(Date.now() - started < 20_000);
    // Correct sign-ins count per email (signin_attempts_per_account = 12 here), from any address.
    const results: number[] = [];
    for (let i = 0; i < 12; i++) results.push((await passwordStep(client(50 + i), 'victim@outpoint.test')).status);
    assert.deepEqual(results.slice(0, 11), Array(11).fill(303), 'the first 12 checks (one above) are allowed');
    assert.equal(results[11], 429);
  });

  it('the second factor\'s set-up needs the password; new recovery codes the password and a current code', async () => {
    const c = await signUp('owner@outpoint.test', 5);
    await c.get('/dashboard/security');
    const noPassword = await c.post('/dashboard/security/2fa/start');
    assert.equal(noPassword.status, 401);
    assert.doesNotMatch(noPassword.body, /totp-secret/);
    const secret = await enableTotp(c);
    await c.get('/dashboard/security');
    const next = () => totpCode(secret, Math.floor(Date.now() / 1000) + 30);
    for (const fields of [{}, { current: PASSWORD }, { current: 'wrong password', code: next() }] as Record<string, string>[]) {
      const refused = await c.post('/dashboard/security/2fa/recovery-codes', fields);
      assert.equal(refused.status, 401, JSON.stringify(fields));
      assert.doesNotMatch(refused.body, /id="recovery-codes"/);
    }
    const made = await c.post('/dashboard/security/2fa/recovery-codes', { current: PASSWORD, code: next() });
    assert.equal(made.status, 200);
    assert.match(made.body, /<code id="recovery-codes">([A-Z2-7]{4}-){3}[A-Z2-7]{4}\n/);
  });

  it('25 rotations of one key leave 20 keys in use', async () => {
    const c = await signUp('keys@outpoint.test', 6);
    await c.get('/dashboard/keys');
    assert.equal((await c.post('/dashboard/keys', { name: 'rotated' })).status, 201);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const page = await c.get('/dashboard/keys');
      const rotate = /action="(\/dashboard\/keys\/\d+\/rotate)"/.exec(page.body)![1]!;
      statuses.push((await c.post(rotate)).status);
    }
    const list = (await c.get('/dashboard/keys')).body;
    const live = (list.match(/badge ok">in use|badge warn">rotated, works until/g) ?? []).length;
    assert.equal(live, 20, statuses.join(' '));
    assert.deepEqual(statuses.slice(0, 19), Array(19).fill(201));
    assert.deepEqual(statuses.slice(19), Array(6).fill(400));
  });
});
