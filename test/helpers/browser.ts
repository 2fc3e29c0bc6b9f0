/**
 * Headless Chromium (Debian's /usr/bin/chromium) through playwright-core for page tests: launch, an axe check that
 * fails on serious or critical violations, and screenshots kept in dist/screenshots/ for people to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = new URL('../../dist/screenshots/', import.meta.url).pathname;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['OUTPOINT_TEST_CHROMIUM'] ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Runs axe on the page as it is; fails listing every serious or critical violation. */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), [], `axe on ${label}`);
}

/** Saves a full-page screenshot as dist/screenshots/<group>/<name>.png. */
export async function screenshot(page: Page, group: string, name: string): Promise<void> {
  const dir = join(SCREENSHOT_DIR, group);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
