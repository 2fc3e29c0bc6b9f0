/**
 * Search that suggests as one types (issue 30, "Missing" 5) in Chromium on `outpoint serve` over litecoind -regtest:
 * typing a txid prefix shows the tx under the box (a combobox with a listbox), Down + Enter opens it; typing a height
 * and clicking its block opens the block; Escape closes the list; axe clean with the list open in both themes, and at
 * 375 px the list stays on screen. Without JavaScript the same form is a plain GET that lands on the right page, for a
 * whole txid and for a prefix. The fragment escapes what it is given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain();
});
after(async () => chain?.close());

const OPTIONS = '#site-search-suggestions [role="option"]';

describe('search suggestions', () => {
  it('a txid prefix suggests the tx: Down and Enter open it; a height suggests its block: a click opens it; Escape closes', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await page.goto(`${chain.serve.url}/${SLUG}`);
      const box = page.locator('#site-search');
      assert.equal(await box.getAttribute('role'), 'combobox');
      assert.equal(await box.getAttribute('aria-expanded'), 'false');
      const txid = chain.paymentTxid;
      await box.pressSequentially(txid.slice(0, 6), { delay: 30 });
      await page.locator(OPTIONS).filter({ hasText: txid }).waitFor();
      assert.equal(await box.getAttribute('aria-expanded'), 'true');
      const index = (await page.locator(OPTIONS).allInnerTexts()).findIndex((t) => t.includes(txid));
      for (let i = 0; i <= index; i++) await box.press('ArrowDown');
      const active = await box.getAttribute('aria-activedescendant');
      assert.equal(await page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
      assert.match(await page.locator(`#${active}`).innerText(), new RegExp(txid));
      await Promise.all([page.waitForURL(`**/${SLUG}/tx/${txid}`), box.press('Enter')]);

      const blockHash = await chain.node.rpc.call<string>('getblockhash', [chain.paymentHeight]);
      await page.locator('#site-search').fill('');
      await page.locator('#site-search').pressSequentially(String(chain.paymentHeight), { delay: 30 });
      const option = page.locator(OPTIONS).filter({ hasText: `Block ${chain.paymentHeight}` });
      await option.waitFor();
      await Promise.all([page.waitForURL(`**/${SLUG}/block/${blockHash}`), option.click()]);

      await page.locator('#site-search').pressSequentially(txid.slice(0, 8), { delay: 30 });
      await page.locator(OPTIONS).first().waitFor();
      await page.locator('#site-search').press('Escape');
      assert.equal(await page.locator('#site-search-suggestions').isHidden(), true);
      assert.equal(await page.locator('#site-search').getAttribute('aria-expanded'), 'false');
      // Enter with no option highlighted is the plain search: a prefix with one match goes to it.
      await Promise.all([page.waitForURL(`**/${SLUG}/tx/${txid}`), page.locator('#site-search').press('Enter')]);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('axe finds nothing serious with the list open, light and dark; at 375 px the list stays on screen', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const { page, problems, context } = await watchedPage(chain.browser, { colorScheme, viewport: { width, height: 800 } });
        try {
          await page.goto(`${chain.serve.url}/${SLUG}/mempool`);
          await page.locator('#site-search').pressSequentially(chain.unconfirmedTxid.slice(0, 5), { delay: 30 });
          await page.locator(OPTIONS).first().waitFor();
          await page.locator('#site-search').press('ArrowDown');
          assert.deepEqual(await seriousViolations(page), [], `${colorScheme} ${width} px`);
          const box = await page.locator('#site-search-suggestions').boundingBox();
          assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the list fits ${width} px: ${JSON.stringify(box)}`);
          assert.equal(await page.evaluate<number>('Math.max(0, document.documentElement.scrollWidth - window.innerWidth)'), 0);
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      }
    }
  });

  it('without JavaScript the form lands on the page: a whole txid, a prefix, a height', async () => {
    const { page, problems, context } = await watchedPage(chain.browser, { javaScriptEnabled: false });
    try {
      const blockHash = await chain.node.rpc.call<string>('getblockhash', [chain.paymentHeight]);
      for (const [typed, landing] of [
        [chain.paymentTxid, `/${SLUG}/tx/${chain.paymentTxid}`],
        [chain.paymentTxid.slice(0, 10), `/${SLUG}/tx/${chain.paymentTxid}`],
        [String(chain.paymentHeight), `/${SLUG}/block/${blockHash}`],
      ] as const) {
        await page.goto(`${chain.serve.url}/${SLUG}`);
        assert.equal(await page.locator('#site-search').getAttribute('role'), null, 'no combobox without the script');
        await page.locator('#site-search').fill(typed);
        await Promise.all([page.waitForURL(`**${landing}`), page.locator('#site-search').press('Enter')]);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('the suggestion fragment is a listbox of escaped options, empty for nothing', async () => {
    const get = async (q: string): Promise<string> => {
      const response = await fetch(`${chain.serve.url}/search?part=suggest&q=${encodeURIComponent(q)}`);
      assert.equal(response.status, 200);
      return response.text();
    };
    assert.equal(await get(''), '<ul id="search-suggestions" role="listbox" aria-label="Suggestions"></ul>');
    assert.equal(await get('<script>alert(1)</script>'), '<ul id="search-suggestions" role="listbox" aria-label="Suggestions"></ul>');
    const found = await get(chain.paymentTxid.slice(0, 7));
    assert.match(found, new RegExp(`<li role="option" data-href="/${SLUG}/tx/${chain.paymentTxid}">`));
    assert.ok((found.match(/role="option"/g) ?? []).length <= 8);
  });
});
