/**
 * Fee advice (issue 30, "Missing" 1) on `outpoint serve` over litecoind -regtest: the home card, the network page and
 * the mempool page show next block / ~30 min / ~1 hour / economy / minimum with the very figures
 * `GET /api/v3/fee_estimates/{network}` answers (one service), in both themes without serious axe violations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/outpoint-cli.js';
import { NET, SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
let apiKey: string;
before(async () => {
  chain = await startExplorerChain();
  await chain.node.send(await chain.node.newAddress('bech32'), '0.01');
  await chain.synced();
  const created = await runCli(['accounts', 'create', '--email', 'fees-page@example.com', '--plan', 'free', '--config', chain.config]);
  apiKey = /(opk_[A-Za-z0-9_-]{43})/.exec(created.stdout)![1]!;
});
after(async () => chain?.close());

interface FeeAnswer { fastest: number; half_hour: number; hour: number; economy: number; minimum: number; unit: string }

async function v3Fees(): Promise<FeeAnswer> {
  const response = await fetch(`${chain.serve.url}/api/v3/fee_estimates/${NET}`, { headers: { 'API-KEY': apiKey } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: FeeAnswer }).data;
}

/** The five rates a page shows, in order (the numbers; the explorer writes units as "lit/vB"). */
async function shownRates(page: Page, scope: string): Promise<string[]> {
  return (await page.locator(`${scope} .fees li strong`).allInnerTexts()).map((t) => t.split(' ')[0]!);
}

describe('fee advice', () => {
  it('the home card, the network page and the mempool page show the v3 fee_estimates figures', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      for (const [path, scope] of [['/', `#net-${SLUG}`], [`/${SLUG}`, `#net-${SLUG}`], [`/${SLUG}/mempool`, '#mempool']] as const) {
        // The projection settles 500 ms after mempool events: the page and the API read the same snapshot once it has.
        let api = await v3Fees();
        await page.goto(chain.serve.url + path);
        let shown = await shownRates(page, scope);
        for (let i = 0; i < 20 && shown[0] !== api.fastest.toFixed(2); i++) {
          await new Promise((r) => setTimeout(r, 250));
          api = await v3Fees();
          await page.reload();
          shown = await shownRates(page, scope);
        }
        // Regtest blocks take the whole mempool, so every level is the minimum here; the point is the same figures.
        assert.deepEqual(shown, [api.fastest, api.half_hour, api.hour, api.economy, api.minimum].map((r) => r.toFixed(2)), path);
        assert.match(await page.locator(`${scope} .fee-advice`).innerText(), /Next block[\s\S]*~30 min[\s\S]*~1 hour[\s\S]*Economy[\s\S]*Minimum/);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('no serious accessibility violations in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await watchedPage(chain.browser, { colorScheme });
      try {
        for (const path of ['/', `/${SLUG}/mempool`]) {
          await page.goto(chain.serve.url + path);
          assert.deepEqual(await seriousViolations(page), [], `${path} ${colorScheme}`);
        }
      } finally {
        await context.close();
      }
    }
  });
});
