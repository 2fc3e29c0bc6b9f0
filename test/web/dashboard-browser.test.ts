/**
 * The account dashboard in headless Chromium against `outpoint serve` on SQLite and on PostgreSQL: sign-up and
 * confirmation by the mail received on a loopback SMTP server, keys (create, use, rotate with grace, revoke),
 * sign-in with TOTP, a cross-origin form refused, sessions ended remotely, an administrator's plan change reaching
 * the user's quota, forgot/reset by mail. Every page is checked with axe and photographed; the service's log is
 * searched for every secret the test saw.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { freePort } from '../helpers/free-port.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { totpCode } from '../helpers/dashboard-fixture.js';
import { ADMIN, GRACE_SECONDS, api, checkPage, eventually, newUser, sessionCookie, signIn, startSite, visit, type DashboardSite } from './dashboard-site.js';
import { crossOriginForm } from './cross-origin-page.js';

const engines = new StoreEngines();
let smtp: SmtpSink;

before(async () => {
  smtp = await startSmtpSink();
});
after(async () => {
  await engines.close();
  await smtp?.stop();
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`dashboard in Chromium (${engine})`, () => {
    let site: DashboardSite;
    const email = `user-${engine}@outpoint.test`;
    let password = 'user password 2026';
    let user: Awaited<ReturnType<typeof newUser>>;
    let key = '';
    const recovery: string[] = [];

    before(async () => {
      site = await startSite(engine, engines, smtp);
      site.secrets.add(password);
      user = await newUser(site);
    });
    after(async () => site?.close());

    it('signs up, confirms the address from the received mail, makes a key, sees its use, rotates it with a grace, revokes it', async () => {
      const { page } = user;
      await visit(site, page, '/dashboard/sign-up', 'sign-up');
      await page.fill('#signup-email', email);
      await page.fill('#signup-password', password);
      await page.click('button:has-text("Create account")');
      await page.waitForURL(/\/dashboard\?welcome=1$/);
      site.secrets.add(await sessionCookie(user.context));
      assert.match(await page.textContent('main') ?? '', /Confirm your email address to make API keys/);
      await checkPage(site, page, 'overview-unconfirmed');
      await visit(site, page, '/dashboard/keys', 'keys-unconfirmed');
      assert.match(await page.textContent('main') ?? '', /Confirm your email address first/);

      const mail = await smtp.waitFor((m) => m.to === email && /Confirm/.test(m.subject));
      const link = mail.links.find((l) => l.includes('/dashboard/verify?token='))!;
      site.secrets.add(new URL(link).searchParams.get('token')!);
      await page.goto(link);
      assert.equal(new URL(page.url()).search, '', 'the code left the address bar');
      await checkPage(site, page, 'verify');
      await page.click('button:has-text("Confirm my address")');
      assert.match(await page.textContent('main') ?? '', /is confirmed/);

      await visit(site, page, '/dashboard/keys', 'keys-empty');
      await page.fill('#key-name', 'test key');
      await page.click('button:has-text("Create key")');
      key = (await page.textContent('#new-key'))!.trim();
      site.secrets.add(key);
      assert.match(key, /^opk_[A-Za-z0-9_-]{43}$/);
      assert.ok(await page.isVisible('button[data-copy="new-key"]'), 'the copy button shows with JavaScript');
      assert.equal((await page.textContent('#curl-line'))!.trim(), `curl -H "API-KEY: ${key}" ${site.serve.url}/api/v3/account_info`);
      await checkPage(site, page, 'key-created');

      const info = await api(site, '/api/v3/account_info', key);
      assert.equal(info.status, 200);
      assert.equal((info.body.data['plan'] as { name: string }).name, 'free');
      assert.ok(Math.abs((info.body.data['last_login_at'] as number) - Date.now() / 1000) < 60, 'last_login_at is the sign-up');
      assert.equal((await api(site, '/api/v3/is_valid_address/LTCTEST/x', key)).status, 404, 'counted, though no network is served');
      await eventually(async () => {
        await page.goto(`${site.serve.url}/dashboard`);
        assert.equal((await page.textContent('#requests-today'))!.trim(), '1');
        assert.match((await page.textContent('#last-api-request'))!, new RegExp(`with key ${key.slice(0, 12)}`));
      });
      await checkPage(site, page, 'overview');

      await visit(site, page, '/dashboard/keys', 'keys');
      // The "v3 API" link opens the API reference's v3 part (it opened a JSON 401 before: no key in a browser).
      await page.click('main a:has-text("v3 API")');
      await page.waitForURL(/\/docs#v3$/);
      assert.ok(await page.isVisible('#v3-title'), 'the v3 part of the API reference');
      await visit(site, page, '/dashboard/keys', 'keys');
      await page.click(`tr[data-prefix="${key.slice(0, 12)}"] button:has-text("Rotate")`);
      const rotated = (await page.textContent('#new-key'))!.trim();
      site.secrets.add(rotated);
      // Within the grace at once: axe and the screenshot of the page can take longer than its 4 s on a loaded machine.
      assert.equal((await api(site, '/api/v3/account_info', key)).status, 200, 'the old key works during the grace');
      assert.equal((await api(site, '/api/v3/account_info', rotated)).status, 200);
      await checkPage(site, page, 'key-rotated');
      await new Promise((r) => setTimeout(r, GRACE_SECONDS * 1000 + 500));
      assert.equal((await api(site, '/api/v3/account_info', key)).status, 401, 'and stops after it');
      await visit(site, page, '/dashboard/keys', 'keys-rotated');
      await page.click(`tr[data-prefix="${rotated.slice(0, 12)}"] button:has-text("Revoke")`);
      await page.waitForURL(/revoked=1/);
      assert.equal((await api(site, '/api/v3/account_info', rotated)).status, 401);
      await page.fill('#key-name', 'live');
      await page.click('button:has-text("Create key")');
      key = (await page.textContent('#new-key'))!.trim();
      site.secrets.add(key);
    });

    it('turns on TOTP and signs in with a code', async () => {
      const { page } = user;
      await visit(site, page, '/dashboard/security', 'security');
      // Setting it up asks for the password (issue 27: a session left open must not enrol its own device).
      await page.fill('#totp-on-current', password);
      await page.click('button:has-text("Set up a second factor")');
      const secret = (await page.textContent('#totp-secret'))!.trim();
      site.secrets.add(secret);
      await checkPage(site, page, 'totp-setup');
      await page.fill('#totp-code', totpCode(secret, Math.floor(Date.now() / 1000)));
      await page.click('button:has-text("Turn on")');
      const codes = (await page.textContent('#recovery-codes'))!.trim().split('\n');
      codes.forEach((c) => site.secrets.add(c));
      recovery.push(...codes);
      assert.equal(codes.length, 10);
      await checkPage(site, page, 'recovery-codes');
      await page.click('header button:has-text("Sign out")');
      await page.waitForURL(/signed-out=1/);
      await signIn(site, page, email, password);
      await page.waitForURL(/\/dashboard\/sign-in\/code$/);
      await checkPage(site, page, 'sign-in-code');
      // The next step's code (the enrolment used this one; a code is good once, the window allows one step ahead).
      await page.fill('#code-code', totpCode(secret, Math.floor(Date.now() / 1000) + 30));
      await page.click('button:has-text("Continue")');
      await page.waitForURL(/\/dashboard$/);
      site.secrets.add(await sessionCookie(user.context));
      // New recovery codes: the password and a current code (here one of the recovery codes); the old ones end.
      await visit(site, page, '/dashboard/security', 'security-totp-on');
      await page.click('summary:has-text("Make new recovery codes")');
      await page.fill('#totp-codes-current', password);
      await page.fill('#totp-codes-code', recovery.pop()!);
      await page.click('button:has-text("Make new recovery codes")');
      const fresh = (await page.textContent('#recovery-codes'))!.trim().split('\n');
      fresh.forEach((c) => site.secrets.add(c));
      assert.equal(fresh.length, 10);
      await checkPage(site, page, 'new-recovery-codes');
      recovery.splice(0, recovery.length, ...fresh);
    });

    it('refuses a form posted from another origin with 403 and changes nothing', async () => {
      const other = await newUser(site);
      await signInWithRecoveryCode(site, other.page, email, password, recovery.pop()!);
      await user.page.goto(`${site.serve.url}/dashboard/security`);
      const token = await user.page.getAttribute('form[action$="/sessions/end-others"] input[name="csrf"]', 'value');
      // Even with the right token (as if it had leaked) a post from another origin is refused.
      const evil = await crossOriginForm(await freePort(), `${site.serve.url}/dashboard/security/sessions/end-others`, { csrf: token! });
      try {
        const [response] = await Promise.all([user.page.waitForResponse((r) => r.request().method() === 'POST'), user.page.goto(evil.url)]);
        assert.equal(response.status(), 403);
        assert.equal(response.headers()['location'], undefined, 'never a redirect');
        await user.page.waitForLoadState('load');
        assert.match(await user.page.textContent('main') ?? '', /Form refused/);
        await checkPage(site, user.page, 'csrf-refused');
      } finally {
        await evil.close();
      }
      const direct = await fetch(`${site.serve.url}/dashboard/security/sessions/end-others`, {
        method: 'POST', redirect: 'manual',
        headers: { cookie: `outpoint_session=${await sessionCookie(user.context)}`, origin: site.serve.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'csrf=forged',
      });
      assert.equal(direct.status, 403, 'same origin without the session-bound token');
      await other.page.goto(`${site.serve.url}/dashboard`);
      assert.match(other.page.url(), /\/dashboard$/, 'the other session was not ended');
      await other.context.close();
    });

    it('lists sessions and signs another browser out', async () => {
      const second = await newUser(site);
      await signInWithRecoveryCode(site, second.page, email, password, recovery.pop()!);
      await visit(site, user.page, '/dashboard/security', 'sessions');
      const rows = user.page.locator('#sessions tbody tr');
      assert.ok((await rows.count()) >= 2);
      await user.page.locator('#sessions tbody tr:has(button:has-text("Sign out"))').last().locator('button').click();
      await user.page.waitForURL(/done=ended/);
      await second.page.goto(`${site.serve.url}/dashboard/keys`);
      assert.match(second.page.url(), /\/dashboard\/sign-in\?next=%2Fdashboard%2Fkeys$/);
      await second.context.close();
    });

    it("an administrator's plan change reaches the user's quota within 5 seconds", async () => {
      const admin = await newUser(site);
      await signIn(site, admin.page, ADMIN.email, ADMIN.password);
      site.secrets.add(await sessionCookie(admin.context));
      await visit(site, admin.page, `/dashboard/admin?q=${encodeURIComponent(email)}`, 'admin-accounts');
      await admin.page.click(`a:has-text("${email}")`);
      await checkPage(site, admin.page, 'admin-account');
      await admin.page.selectOption('#plan-select', 'tiny');
      await admin.page.click('button:has-text("Change plan")');
      await admin.page.waitForURL(/done=plan/);
      await eventually(async () => {
        const info = await api(site, '/api/v3/account_info', key);
        assert.deepEqual([(info.body.data['plan'] as { name: string }).name, (info.body.data['plan'] as { max_daily_requests: number }).max_daily_requests], ['tiny', 2]);
      }, 5_000);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await api(site, '/api/v3/is_valid_address/LTCTEST/x', key)).status);
      assert.equal(statuses[statuses.length - 1], 429);
      for (const [path, name] of [['/dashboard/admin/plans', 'admin-plans'], ['/dashboard/admin/invites', 'admin-invites']] as const) await visit(site, admin.page, path, name);
      await admin.context.close();
    });

    it('resets a forgotten password from the received mail', async () => {
      const { context, page } = await newUser(site);
      await visit(site, page, '/dashboard/forgot', 'forgot');
      await page.fill('#forgot-email', email);
      await page.click('button:has-text("Send me a link")');
      assert.match(await page.textContent('main') ?? '', /If an account exists for that address/);
      const mail = await smtp.waitFor((m) => m.to === email && /Reset/.test(m.subject));
      const link = mail.links.find((l) => l.includes('/dashboard/reset?token='))!;
      site.secrets.add(new URL(link).searchParams.get('token')!);
      await visit(site, page, link, 'reset');
      password = 'a new user password';
      site.secrets.add(password);
      await page.fill('#reset-password', password);
      await page.click('button:has-text("Set password")');
      await page.waitForURL(/reset=1/);
      await checkPage(site, page, 'sign-in-after-reset');
      await user.page.goto(`${site.serve.url}/dashboard`);
      assert.match(user.page.url(), /\/dashboard\/sign-in/, 'the reset signed every browser out');
      await context.close();
    });

    it('the service log holds none of the secrets the test saw', async () => {
      await user.context.close();
      const log = site.serve.log.join('');
      assert.ok(log.includes('http listening'));
      for (const secret of site.secrets) assert.ok(!log.includes(secret), `a secret (${secret.slice(0, 4)}…) is in the log`);
      assert.doesNotMatch(log, /token=|invite=|opk_[A-Za-z0-9_-]{20}/);
    });
  });
}

async function signInWithRecoveryCode(site: DashboardSite, page: Page, email: string, password: string, code: string): Promise<void> {
  await signIn(site, page, email, password);
  await page.fill('#code-code', code);
  await page.click('button:has-text("Continue")');
  await page.waitForURL(/\/dashboard$/);
}
