/**
 * Issue 32: the dashboard's webhooks page in headless Chromium against `outpoint serve` (SQLite): the account's hooks
 * and its newest deliveries (state, attempts, last error), re-send of a failed delivery and delete of a hook; axe at
 * 1280 and 375 px, screenshots in dist/screenshots/dashboard-webhooks/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { PasswordHasher } from '../../src/services/dashboard/password-hasher.js';
import { assertAccessible, launchChromium, screenshot } from '../helpers/browser.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines } from '../helpers/store-engines.js';

const engines = new StoreEngines();
const USER = { email: 'hooks@outpoint.test', password: 'hooks password 2026' };
let serve: ServeProcess;
let browser: Browser;
let hookId = 0;

before(async () => {
  const store = await engines.create('sqlite');
  const now = Math.floor(Date.now() / 1000);
  const account = await store.store.accounts().createAccount({
    email: USER.email, plan: 'free', createdAt: now, periodEndsAt: now + 86_400, willRenew: true, emailVerifiedAt: now,
    passwordHash: await new PasswordHasher().hash(USER.password),
  });
  const hooks = store.store.webhooks();
  const hook = await hooks.create({
    accountId: account.id, network: 'LTCTEST', event: 'address', url: 'https://receiver.example/outpoint/hook', secret: 'whsec_test',
    address: 'rltc1qw72vywyyjy32ymwly49t6425qxh7e5evamltk2', script: '0014ab', txid: null, confirmations: null,
  }, now, 20);
  hookId = hook!.id;
  await hooks.create({ accountId: account.id, network: 'LTCTEST', event: 'block', url: 'https://receiver.example/blocks', secret: 's', address: null, script: null, txid: null, confirmations: null }, now, 20);
  await hooks.enqueue([{ id: 'a'.repeat(32), hookId, event: 'address', body: '{}' }, { id: 'b'.repeat(32), hookId, event: 'address', body: '{}' }], Date.now());
  await hooks.claim(Date.now(), 1000, 10);
  await hooks.settle('a'.repeat(32), { state: 'failed', nextAt: null, status: 503, error: 'HTTP 503' }, Date.now());
  await hooks.settle('b'.repeat(32), { state: 'delivered', nextAt: null, status: 200, error: null }, Date.now());
  await store.store.close();
  serve = await startServeWithBody(`[store]\nurl = "${store.url}"\n[web]\nrate_limit_per_second = 0`, { readyPath: '/dashboard/sign-in' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await serve?.stop();
  await engines.close();
});

describe('dashboard webhooks page in Chromium', () => {
  it('lists hooks and deliveries, re-sends a failed delivery, deletes a hook; accessible at 1280 and 375 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${serve.url}/dashboard/sign-in`);
    await page.fill('#signin-email', USER.email);
    await page.fill('#signin-password', USER.password);
    await page.click('button:has-text("Sign in")');
    await page.waitForLoadState('load');
    await page.click('nav.dash-nav a:has-text("Webhooks")');
    await page.waitForURL(/\/dashboard\/webhooks$/);
    assert.equal(await page.locator('#hooks tbody tr').count(), 2);
    assert.match(await page.textContent(`#hooks tr[data-hook="${hookId}"]`) ?? '', /address.*LTCTEST.*rltc1qw72vy.*receiver\.example\/outpoint\/hook/s);
    const failed = page.locator(`#deliveries tr[data-delivery="${'a'.repeat(32)}"]`);
    assert.match(await failed.textContent() ?? '', /failed\s*1\s*HTTP 503/);
    await assertAccessible(page, 'webhooks 1280');
    await screenshot(page, 'dashboard-webhooks', 'list-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    // Rows are cards at phone widths (shell/data-table.ts): the page fits and every cell is on screen.
    const fit = await page.evaluate<{ page: number; outside: number }>(`({
      page: document.documentElement.scrollWidth,
      outside: [...document.querySelectorAll('#hooks td, #deliveries td')].filter((td) => { const r = td.getBoundingClientRect(); return r.width > 1 && (r.left < -0.5 || r.right > 375.5); }).length,
    })`);
    assert.deepEqual(fit, { page: 375, outside: 0 }, 'no sideways scroll at 375 px');
    await assertAccessible(page, 'webhooks 375');
    await screenshot(page, 'dashboard-webhooks', 'list-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await failed.locator('button:has-text("Re-send")').click();
    await page.waitForURL(/done=resent/);
    assert.match(await page.textContent('main') ?? '', /will be sent again/);
    // The delivery is pending again (retried by the dispatcher; the receiver does not exist, so it stays so).
    assert.match(await page.locator(`#deliveries tr[data-delivery="${'a'.repeat(32)}"]`).textContent() ?? '', /retrying|pending/);
    assert.equal(await page.locator(`#deliveries tr[data-delivery="${'b'.repeat(32)}"] button`).count(), 1, 'a delivered one can be re-sent too');

    await page.locator(`#hooks tr[data-hook="${hookId}"] button:has-text("Delete")`).click();
    await page.waitForURL(/done=deleted/);
    assert.equal(await page.locator(`#hooks tr[data-hook="${hookId}"]`).count(), 0);
    assert.equal(await page.locator('#hooks tbody tr').count(), 1);
    await assertAccessible(page, 'webhooks after delete');
    await screenshot(page, 'dashboard-webhooks', 'after-delete');
    await context.close();
  });
});
