/**
 * Live tabs under the shipped limits (issue 30, "Live tabs hit the page limit"): `outpoint serve` with the default
 * `[web]` budgets, six live tabs of one visitor (one browser, one address) while a block is mined every 3 s for a
 * minute: no request of any tab is answered 429 and every tab shows each new tip. A fast walk with a theme click, at a
 * person's pace (an action every 250 ms), stays under the page budget. A live refresh answered 429 (forced here) is
 * retried after a back-off, so the tab still shows the new tip.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { watchedPage } from '../helpers/browser.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

const BLOCK_EVERY_MS = 3_000;
const RUN_MS = 60_000;

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain({ defaultLimits: true });
});
after(async () => chain?.close());

/** The tip height the page shows: the network card's "Height". */
function shownTip(page: Page): Promise<string> {
  return page.locator(`#net-${SLUG} dt:text-is("Height") + dd`).innerText().then((t) => t.trim().replace(/,/g, ''));
}

async function waitForTip(page: Page, height: number, ms: number): Promise<void> {
  await page.locator(`#net-${SLUG} dt:text-is("Height") + dd`).filter({ hasText: new RegExp(`^\\s*${height.toLocaleString('en-US')}\\s*$`) }).waitFor({ timeout: ms });
}

describe('live tabs under the default limits', () => {
  it(`six tabs, a block every ${BLOCK_EVERY_MS / 1000} s for a minute: no 429, every tab shows every new tip`, async () => {
    const { page: first, problems, context } = await watchedPage(chain.browser);
    const refused: string[] = [];
    let fragments = 0;
    context.on('response', (response) => {
      if (response.url().includes('part=')) fragments++;
      if (response.status() === 429) refused.push(response.url());
    });
    try {
      const paths = ['/', `/${SLUG}`, '/', `/${SLUG}`, `/${SLUG}/mempool`, '/'];
      const tabs = [first, ...(await Promise.all(paths.slice(1).map(() => context.newPage())))];
      for (const [i, tab] of tabs.entries()) {
        await tab.goto(`${chain.serve.url}${paths[i]}`);
        await tab.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
      }
      const withTip = tabs.filter((_, i) => paths[i] !== `/${SLUG}/mempool`);
      const started = Date.now();
      let blocks = 0;
      while (Date.now() - started < RUN_MS) {
        const round = Date.now();
        // A payment and a block: tx_update and block_update reach every tab.
        await chain.node.send(await chain.node.newAddress('bech32'), '0.01');
        await chain.node.mine(1);
        blocks++;
        const height = await chain.node.rpc.call<number>('getblockcount');
        await Promise.all(withTip.map((tab) => waitForTip(tab, height, BLOCK_EVERY_MS * 2)));
        await new Promise((r) => setTimeout(r, Math.max(0, BLOCK_EVERY_MS - (Date.now() - round))));
      }
      const height = await chain.node.rpc.call<number>('getblockcount');
      for (const tab of withTip) assert.equal(await shownTip(tab), String(height));
      assert.ok(blocks >= 15, `${blocks} blocks mined`);
      assert.ok(fragments >= blocks * withTip.length, `${fragments} live refreshes`);
      assert.deepEqual(refused, [], 'no 429 reached the browser');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a fast walk with a theme click stays under the page budget', async () => {
    const { page, problems, context } = await watchedPage(chain.browser, { javaScriptEnabled: false });
    const refused: string[] = [];
    page.on('response', (response) => response.status() === 429 && refused.push(response.url()));
    // A person's pace, not the machine's: at most one action every 250 ms, as fast as anyone clicks. Unpaced, a fast
    // machine loads more than the budget's 10 pages within one second (seen on a faster VM), which no visitor does.
    // An action is at most two requests (the theme form and the search redirect), so at most 8 a second.
    let last = 0;
    const act = async (action: () => Promise<unknown>): Promise<void> => {
      await new Promise((r) => setTimeout(r, Math.max(0, last + 250 - Date.now())));
      last = Date.now();
      await action();
    };
    try {
      for (let i = 0; i < 3; i++) {
        await act(() => page.goto(`${chain.serve.url}/`));
        await act(() => page.click(`#net-${SLUG} dt:text-is("Height") + dd a`));
        await act(() => page.click('a:text-is("Previous block"), dt:text-is("Previous block") + dd a'));
        await act(async () => {
          await page.getByRole('button', { name: i % 2 === 0 ? 'Dark' : 'Light' }).click();
          await page.waitForLoadState('load');
        });
        await act(() => page.goto(`${chain.serve.url}/${SLUG}/mempool`));
        await act(() => page.goto(`${chain.serve.url}/search?q=${chain.paymentTxid}`));
        await act(() => page.goto(`${chain.serve.url}/${SLUG}/address/${chain.addresses.legacy}`));
      }
      assert.deepEqual(refused, []);
      assert.doesNotMatch(await page.title(), /Too many/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a live refresh answered 429 backs off and retries until the tab shows the new tip', async () => {
    const { page, context } = await watchedPage(chain.browser);
    let refusedNow = 2;
    const asked: number[] = [];
    await context.route(/part=card/, async (route) => {
      asked.push(Date.now());
      if (refusedNow-- > 0) return route.fulfill({ status: 429, headers: { 'retry-after': '1', 'content-type': 'text/html' }, body: '<p>Too many requests</p>' });
      return route.continue();
    });
    try {
      await page.goto(`${chain.serve.url}/`);
      await page.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
      await chain.node.mine(1);
      const height = await chain.node.rpc.call<number>('getblockcount');
      await waitForTip(page, height, 15_000);
      assert.equal(asked.length, 3, 'refused twice, then answered');
      assert.ok(asked[1]! - asked[0]! >= 1_000 && asked[2]! - asked[1]! >= 1_000, `waited Retry-After at least: ${asked.map((t) => t - asked[0]!).join(', ')} ms`);
    } finally {
      await context.close();
    }
  });
});
