/**
 * What a person notices, measured in headless Chromium on every page type: no serious or critical axe
 * violations (light and dark), no console errors, no sideways scrolling at 375 px, at most 60 KB of JavaScript
 * and 30 KB of CSS (gzipped) and no request beyond the page's one HTML answer and its assets, themes without a
 * flash (media query, cookie override), keyboard access. Screenshots of each page type at desktop and 375 px
 * width go to .tmp/test-output/explorer/ (or $OUTPOINT_TEST_OUTPUT).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

const OUTPUT = process.env.OUTPOINT_TEST_OUTPUT ?? new URL('../../.tmp/test-output/explorer', import.meta.url).pathname;
const JS_BUDGET = 60 * 1024;
const CSS_BUDGET = 30 * 1024;

let chain: ExplorerChain;
let pages: [name: string, path: string][];
before(async () => {
  chain = await startExplorerChain();
  mkdirSync(OUTPUT, { recursive: true });
  pages = [
    ['home', '/'],
    ['network', `/${SLUG}`],
    ['block-mweb', `/${SLUG}/block/${chain.activation.hash}`],
    ['tx', `/${SLUG}/tx/${chain.paymentTxid}`],
    ['tx-unconfirmed', `/${SLUG}/tx/${chain.unconfirmedTxid}`],
    ['address', `/${SLUG}/address/${chain.addresses.legacy}`],
    ['mempool', `/${SLUG}/mempool`],
    ['search-empty', '/search?q='],
    ['not-found', '/search?q=nothing+here'],
  ];
});
after(async () => chain?.close());

/** Bytes on the wire when the browser accepts gzip. */
function gzippedSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let size = 0;
      res.on('data', (chunk: Buffer) => (size += chunk.length));
      res.on('end', () => resolve(size));
    }).on('error', reject);
  });
}

describe('explorer quality on every page type', () => {
  it('no serious or critical accessibility violations, light and dark; no console errors', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems, context } = await watchedPage(chain.browser, { colorScheme });
      try {
        for (const [name, path] of pages) {
          await page.goto(chain.serve.url + path);
          assert.deepEqual(await seriousViolations(page), [], `${name} (${colorScheme})`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  it('readable at 375 px without sideways scrolling; screenshots at desktop and 375 px', async () => {
    for (const [width, label] of [[1280, 'desktop'], [375, '375px']] as const) {
      const { page, problems, context } = await watchedPage(chain.browser, { viewport: { width, height: 800 } });
      try {
        for (const [name, path] of pages) {
          await page.goto(chain.serve.url + path);
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
          assert.ok(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
          await page.screenshot({ path: join(OUTPUT, `${name}-${label}.png`), fullPage: true });
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  it('within the JavaScript and CSS budgets, with one HTML answer per page and nothing fetched at load', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      for (const [name, path] of pages) {
        const requests: { type: string; url: string; redirected: boolean }[] = [];
        const listener = (request: import('playwright-core').Request): void => {
          requests.push({ type: request.resourceType(), url: request.url(), redirected: request.redirectedFrom() !== null });
        };
        page.on('request', listener);
        await page.goto(chain.serve.url + path, { waitUntil: 'networkidle' });
        page.off('request', listener);
        const documents = requests.filter((r) => r.type === 'document');
        assert.equal(documents.length, 1, `${name}: one HTML answer`);
        assert.ok(requests.every((r) => !r.redirected), `${name}: no redirect`);
        assert.deepEqual(requests.filter((r) => r.type === 'fetch' || r.type === 'xhr'), [], `${name}: no data fetched to render`);
        const size = async (type: string): Promise<number> => (await Promise.all(requests.filter((r) => r.type === type).map((r) => gzippedSize(r.url)))).reduce((a, b) => a + b, 0);
        const js = await size('script');
        const css = await size('stylesheet');
        assert.ok(js > 0 && js <= JS_BUDGET, `${name}: ${js} bytes of JavaScript`);
        assert.ok(css > 0 && css <= CSS_BUDGET, `${name}: ${css} bytes of CSS`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('themes follow prefers-color-scheme, and the theme cookie overrides it from the first paint', async () => {
    const background = (page: Page): Promise<string> => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    const light = 'rgb(255, 255, 255)';
    const dark = 'rgb(15, 17, 21)';
    for (const [scheme, cookie, expected] of [['light', null, light], ['dark', null, dark], ['dark', 'light', light], ['light', 'dark', dark]] as const) {
      const { page, problems, context } = await watchedPage(chain.browser, { colorScheme: scheme, javaScriptEnabled: false });
      try {
        if (cookie) await context.addCookies([{ name: 'outpoint_theme', value: cookie, url: chain.serve.url }]);
        await page.goto(`${chain.serve.url}/${SLUG}`);
        assert.equal(await background(page), expected, `scheme ${scheme}, cookie ${cookie}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
    // Choosing a theme with the footer's buttons (a plain form) sets the cookie and returns to the page.
    const { page, context } = await watchedPage(chain.browser, { colorScheme: 'light', javaScriptEnabled: false });
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/mempool`);
      await page.getByRole('button', { name: 'Dark' }).click();
      await page.waitForURL(`**/${SLUG}/mempool`);
      assert.equal(await background(page), dark);
      assert.equal(await page.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed'), 'true');
    } finally {
      await context.close();
    }
  });

  it('keyboard: skip link first, then the header; every control shows its focus', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/address/${chain.addresses.legacy}`);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate<string>('document.activeElement.textContent'), 'Skip to content');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate<string>('document.activeElement.id'), 'main');
      // Tab through the whole page: every focused element draws an outline.
      const seen = new Set<string>();
      for (let i = 0; i < 300; i++) {
        await page.keyboard.press('Tab');
        const focus = await page.evaluate<{ key: string; outline: boolean } | null>(`(() => {
          const el = document.activeElement;
          if (!el || el === document.body || el.hasAttribute('data-tab-seen')) return null;
          el.setAttribute('data-tab-seen', '');
          const style = getComputedStyle(el);
          return { key: el.tagName + ':' + (el.textContent || '').trim().slice(0, 40) + ':' + (el.getAttribute('href') || ''), outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
        })()`);
        if (!focus) break;
        seen.add(focus.key);
        assert.ok(focus.outline, `${focus.key} has a visible focus outline`);
      }
      assert.ok([...seen].some((k) => k.startsWith('BUTTON:Dark')), 'the theme buttons are reachable');
      assert.ok([...seen].some((k) => k.includes('history.csv')), 'the CSV link is reachable');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
