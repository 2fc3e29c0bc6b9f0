/**
 * Headless Chromium for the web tests: Debian's /usr/bin/chromium driven by playwright-core (no browser
 * download). Watched pages record console errors and uncaught exceptions, and fail on any dialog (an injected
 * script that ran would open one); an axe check fails on serious or critical violations; screenshots are kept in
 * dist/screenshots/ for people to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env['OUTPOINT_TEST_CHROMIUM'] ?? process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export const SCREENSHOT_DIR = new URL('../../dist/screenshots/', import.meta.url).pathname;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** axe on the page as it is: every serious or critical violation, with the elements it names. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Runs axe on the page as it is; fails listing every serious or critical violation. */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${label}`);
}

/** Saves a full-page screenshot as dist/screenshots/<group>/<name>.png. */
export async function screenshot(page: Page, group: string, name: string): Promise<void> {
  const dir = join(SCREENSHOT_DIR, group);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors and warnings, uncaught exceptions, dialogs, CSP violations: anything a visitor's console would show. */
  readonly problems: string[];
}

/** A page in a fresh context whose console is watched. Document requests answered 404 on purpose are not problems. */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage & { context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const expected404 = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document' && response.status() === 404) expected404.add(response.url());
  });
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const location = message.location().url;
    if (/status of 404/.test(message.text()) && expected404.has(location)) return;
    problems.push(`${message.type()}: ${message.text()} (${location})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems, context };
}
