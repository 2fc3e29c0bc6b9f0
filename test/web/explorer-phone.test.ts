/**
 * Every explorer and dashboard page type at 375 px in headless Chromium, light and dark (issue 30, "Phones"): the
 * page is not wider than the screen, no table region scrolls sideways and every table cell (the values people read:
 * input/output values, spent-by, balance change, fee and fee rate, miner, a key's actions) lies inside the screen;
 * axe finds no serious or critical violation; no console error. Screenshots of each page go to
 * .tmp/test-output/explorer/phone-*.png (or $OUTPOINT_TEST_OUTPUT); docs/explorer.md shows some of them.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import type { Page } from 'playwright-core';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/outpoint-cli.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

const OUTPUT = process.env.OUTPOINT_TEST_OUTPUT ?? new URL('../../.tmp/test-output/explorer', import.meta.url).pathname;
const WIDTH = 375;
const ADMIN = { email: 'phone-admin@outpoint.test', password: 'phone admin password 2026' };
const TPUB = HDKey.fromMasterSeed(Buffer.alloc(32, 9), { public: 0x043587cf, private: 0x04358394 }).derive("m/84'/1'/0'").publicExtendedKey;

let chain: ExplorerChain;
let explorerPages: [name: string, path: string][];
const dashboardPages: [name: string, path: string][] = [
  ['dashboard-overview', '/dashboard'],
  ['dashboard-keys', '/dashboard/keys'],
  ['dashboard-security', '/dashboard/security'],
  ['dashboard-webhooks', '/dashboard/webhooks'],
  ['dashboard-admin-accounts', '/dashboard/admin'],
  ['dashboard-admin-plans', '/dashboard/admin/plans'],
  ['dashboard-admin-invites', '/dashboard/admin/invites'],
];

before(async () => {
  chain = await startExplorerChain();
  mkdirSync(OUTPUT, { recursive: true });
  const created = await runCli(['accounts', 'create', '--email', ADMIN.email, '--plan', 'free', '--admin', '--config', chain.config]);
  assert.equal(created.code, 0, created.stderr);
  explorerPages = [
    ['home', '/'],
    ['network', `/${SLUG}`],
    ['block', `/${SLUG}/block/${chain.paymentHeight}`],
    ['block-mweb', `/${SLUG}/block/${chain.activation.hash}`],
    ['tx', `/${SLUG}/tx/${chain.paymentTxid}`],
    ['tx-unconfirmed', `/${SLUG}/tx/${chain.unconfirmedTxid}`],
    ['address', `/${SLUG}/address/${chain.addresses.legacy}`],
    ['mempool', `/${SLUG}/mempool`],
    ['wallet', `/${SLUG}/xpub/${TPUB}`],
    ['search-choice', '/search?q='],
    ['not-found', '/search?q=nothing+here'],
    ['api-reference', '/docs'],
    ['sign-in', '/dashboard/sign-in'],
  ];
});
after(async () => chain?.close());

/** Sets the administrator's password through a reset link (`outpoint accounts reset-link`) and signs in. */
async function signIn(page: Page): Promise<void> {
  const link = await runCli(['accounts', 'reset-link', '--email', ADMIN.email, '--config', chain.config]);
  const url = /(https?:\/\/\S+)/.exec(link.stdout)![1]!.replace(/^https?:\/\/[^/]+/, chain.serve.url);
  await page.goto(url);
  await page.fill('input[name="password"]', ADMIN.password);
  await page.click('button:has-text("Set password")');
  await page.waitForURL(/sign-in/);
  await page.fill('#signin-email', ADMIN.email);
  await page.fill('#signin-password', ADMIN.password);
  await page.click('button:has-text("Sign in")');
  await page.waitForURL((u) => !u.pathname.endsWith('/sign-in'));
}

interface Width {
  readonly page: number;
  /** Table regions whose content is wider than the region (they would scroll sideways). */
  readonly scrollingTables: string[];
  /** Table cells that reach outside the screen. */
  readonly offscreenCells: string[];
}

function measure(page: Page): Promise<Width> {
  return page.evaluate<Width>(`(() => {
    const width = document.documentElement.clientWidth;
    const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden'; };
    const name = (el) => (el.getAttribute('data-label') || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
    return {
      page: document.documentElement.scrollWidth,
      scrollingTables: [...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => w.getAttribute('aria-label') || '?'),
      offscreenCells: [...document.querySelectorAll('main td, main tbody th')].filter(visible).filter((c) => { const r = c.getBoundingClientRect(); return r.left < -0.5 || r.right > width + 0.5; }).map(name),
    };
  })()`);
}

async function checkAll(page: Page, pages: readonly [string, string][], scheme: 'light' | 'dark'): Promise<void> {
  for (const [name, path] of pages) {
    await page.goto(chain.serve.url + path);
    const width = await measure(page);
    assert.ok(width.page <= WIDTH, `${name} (${scheme}) is ${width.page} px wide at ${WIDTH}`);
    await page.screenshot({ path: join(OUTPUT, `phone-${name}-${scheme}.png`), fullPage: true });
    assert.deepEqual(width.scrollingTables, [], `${name} (${scheme}): tables scrolling sideways`);
    assert.deepEqual(width.offscreenCells, [], `${name} (${scheme}): cells off screen`);
    assert.deepEqual(await seriousViolations(page), [], `${name} (${scheme}) axe`);
    await page.screenshot({ path: join(OUTPUT, `phone-${name}-${scheme}.png`), fullPage: true });
  }
}

describe(`every page type at ${WIDTH} px`, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`explorer and dashboard pages fit the screen with every value visible (${scheme})`, async () => {
      const { page, problems, context } = await watchedPage(chain.browser, { viewport: { width: WIDTH, height: 800 }, colorScheme: scheme });
      try {
        await checkAll(page, explorerPages, scheme);
        await signIn(page);
        await checkAll(page, dashboardPages, scheme);
        // The tables that scrolled sideways before: their value cells carry their heading (a card line).
        await page.goto(`${chain.serve.url}/${SLUG}/tx/${chain.paymentTxid}`);
        assert.ok(await page.locator('[aria-label="Outputs"] td[data-label="Value"]').count() > 0);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});
