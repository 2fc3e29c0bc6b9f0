/**
 * One dashboard site for the browser tests: `outpoint serve` on a fresh store of one engine (open registration,
 * mail to a loopback SMTP server, a short key grace), an administrator made in the store beforehand, Chromium,
 * and the steps a user takes (visit with an axe check and a screenshot, sign up, sign in, call the API).
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PasswordHasher } from '../../src/services/dashboard/password-hasher.js';
import { assertAccessible, launchChromium, screenshot } from '../helpers/browser.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';
import type { SmtpSink } from '../helpers/smtp-sink.js';
import type { EngineName, StoreEngines } from '../helpers/store-engines.js';

export const GRACE_SECONDS = 4;
export const ADMIN = { email: 'admin@outpoint.test', password: 'admin password 2026' };

export interface DashboardSite {
  readonly engine: EngineName;
  readonly serve: ServeProcess;
  readonly browser: Browser;
  /** Every secret the test saw (passwords, keys, cookies, link codes, recovery codes): none may reach the log. */
  readonly secrets: Set<string>;
  close(): Promise<void>;
}

export async function startSite(engine: EngineName, engines: StoreEngines, smtp: SmtpSink): Promise<DashboardSite> {
  const store = await engines.create(engine);
  const accounts = store.store.accounts();
  await accounts.setPlan('tiny', 2, 1);
  const now = Math.floor(Date.now() / 1000);
  await accounts.createAccount({
    email: ADMIN.email, plan: 'free', createdAt: now, periodEndsAt: now + 30 * 86_400, willRenew: true, isAdmin: true, emailVerifiedAt: now,
    passwordHash: await new PasswordHasher().hash(ADMIN.password),
  });
  await store.store.close();
  const serve = await startServeWithBody(`[store]
url = "${store.url}"
[web]
rate_limit_per_second = 0
[accounts]
registration = "open"
key_grace_seconds = ${GRACE_SECONDS}
[smtp]
url = "${smtp.url}"
from = "Outpoint <no-reply@outpoint.test>"`, { readyPath: '/dashboard/sign-in' });
  const browser = await launchChromium();
  return {
    engine, serve, browser, secrets: new Set([ADMIN.password]),
    async close() {
      await browser.close();
      await serve.stop();
    },
  };
}

/** Opens a path (or follows to it), checks it with axe and saves a screenshot. */
export async function visit(site: DashboardSite, page: Page, path: string, name: string): Promise<void> {
  if (path !== '') await page.goto(path.startsWith('http') ? path : `${site.serve.url}${path}`);
  await checkPage(site, page, name);
}

export async function checkPage(site: DashboardSite, page: Page, name: string): Promise<void> {
  await page.waitForLoadState('load');
  await assertAccessible(page, `${name} (${site.engine})`);
  await screenshot(page, `dashboard-${site.engine}`, name);
}

export async function newUser(site: DashboardSite): Promise<{ context: BrowserContext; page: Page }> {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  return { context, page: await context.newPage() };
}

export async function signIn(site: DashboardSite, page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${site.serve.url}/dashboard/sign-in`);
  await page.fill('#signin-email', email);
  await page.fill('#signin-password', password);
  await page.click('button:has-text("Sign in")');
  await page.waitForLoadState('load');
}

/** The session cookie's value (a secret the log must never show). */
export async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name.endsWith('outpoint_session'));
  assert.ok(cookie, 'signed in');
  return cookie.value;
}

export async function api(site: DashboardSite, path: string, key: string): Promise<{ status: number; body: { data: Record<string, unknown> } }> {
  const response = await fetch(`${site.serve.url}${path}`, { headers: { 'API-KEY': key } });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

/** Polls until `check` passes (throwing its last failure after `ms`). */
export async function eventually(check: () => Promise<void>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
