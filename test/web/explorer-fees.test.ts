/**
 * Fee advice (issue 30, "Missing" 1) on `outpoint serve` over litecoind -regtest: the home card, the network page and
 * the mempool page show next block / ~30 min / ~1 hour / economy / minimum with the very figures
 * `GET /api/v3/fee_estimates/{network}` answers (one service), in both themes without serious axe violations. The
 * mempool page's graphics (Missing 1): the projected blocks drawn with the figures v3 network_info answers, and the
 * fee-rate histogram equal to the node's own mempool (getrawmempool's fees and vsizes, banded the same way).
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

/** The five rates a page shows, in order (the numbers; the explorer writes units as "litoshi/vB"). */
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

  it("the projected-blocks graphic shows v3 network_info's blocks; the histogram equals the node's mempool", async () => {
    // More txs at several rates, then the page once the projection has them all.
    for (const rate of [12, 25, 25, 60]) await chain.node.rpc.call('sendtoaddress', [await chain.node.newAddress('bech32'), 0.01, '', '', false, false, null, 'unset', false, rate]);
    await chain.synced();
    const mempool = await chain.node.rpc.call<Record<string, { vsize: number; fees: { modified: number } }>>('getrawmempool', [true]);
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      type Info = { mempool: { mempool_txs: number; blocks: { block_num: number; num_txs: number; median_fee_rate: number }[] } };
      const read = async (): Promise<Info> => ((await (await fetch(`${chain.serve.url}/api/v3/network_info/${NET}`, { headers: { 'API-KEY': apiKey } })).json()) as { data: Info }).data;
      let info = await read();
      for (let i = 0; i < 40 && info.mempool.mempool_txs !== Object.keys(mempool).length; i++) {
        await new Promise((r) => setTimeout(r, 250));
        info = await read();
      }
      await page.goto(`${chain.serve.url}/${SLUG}/mempool`);
      const tiles = await page.locator('.proj-chart g.proj-block > title').allTextContents();
      const withTxs = info.mempool.blocks.filter((b) => b.num_txs > 0);
      assert.equal(tiles.length, withTxs.length);
      for (const [i, b] of withTxs.entries()) {
        assert.match(tiles[i]!, new RegExp(`^${b.block_num === 1 ? 'Next block' : `Block \\+${b.block_num}`}: ${b.num_txs} txs?, median ${b.median_fee_rate.toFixed(2)} `), tiles[i]);
      }
      // The node's mempool banded as the page bands it (each tx at its own rate, base units per vbyte).
      const edges = [0, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150, 200, 300, 500, 1000];
      const expected = new Map<string, { txs: number; vsize: number }>();
      for (const e of Object.values(mempool)) {
        const rate = Math.round(e.fees.modified * 1e8) / e.vsize;
        let i = edges.length - 1;
        while (i > 0 && rate < edges[i]!) i--;
        const label = i === edges.length - 1 ? `${edges[i]}+` : `${edges[i]}–${edges[i + 1]}`;
        const band = expected.get(label) ?? { txs: 0, vsize: 0 };
        expected.set(label, { txs: band.txs + 1, vsize: band.vsize + e.vsize });
      }
      const rows = await page.locator('table tr[data-band]').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-band'), [...tr.querySelectorAll('td')].map((td) => td.textContent)]));
      const shown = new Map(rows.map(([label, cells]) => [label as string, { txs: Number((cells as string[])[1]!.replace(/,/g, '')), vsize: Number((cells as string[])[2]!.replace(/,/g, '')) }]));
      assert.deepEqual(shown, expected);
      assert.ok(expected.size >= 3, 'several bands');
      assert.equal(await page.locator('svg g[data-band]').count(), expected.size, 'one bar per band');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it("the network page's block chart shows each block's tx count and fees as v2 block answers them", async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await page.goto(`${chain.serve.url}/${SLUG}`);
      const bars = await page.locator('.blocks-chart g[data-height]').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-height'), g.querySelector('title')!.textContent]));
      assert.equal(bars.length, 20);
      for (const [height, title] of bars) {
        const block = ((await (await fetch(`${chain.serve.url}/api/v2/block/${NET}/${height}`)).json()) as { data: { fee: string; txs: unknown[] } }).data;
        assert.equal(title, `Block ${height}: ${block.txs.length} tx${block.txs.length === 1 ? '' : 's'}, fees ${block.fee} LTC`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it("the block page's fee-rate span, median and histogram equal the node's figures for the block", async () => {
    // The node's getblock has no fees here: take them from its mempool just before the block takes it all (regtest).
    const waiting = await chain.node.rpc.call<Record<string, { vsize: number; fees: { base: number } }>>('getrawmempool', [true]);
    const [hash] = await chain.node.mine(1);
    await chain.synced();
    const mined = new Set((await chain.node.rpc.call<{ tx: string[] }>('getblock', [hash, 1])).tx);
    const rates = Object.entries(waiting).filter(([txid]) => mined.has(txid)).map(([, e]) => Math.round(e.fees.base * 1e8) / e.vsize).sort((a, b) => a - b);
    assert.ok(rates.length >= 4, `${rates.length} paying txs`);
    const mid = Math.floor(rates.length / 2);
    const median = rates.length % 2 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
    const body = await (await fetch(`${chain.serve.url}/${SLUG}/block/${hash}`)).text();
    const field = /<dt>Fee rates<\/dt><dd>([\s\S]*?)<\/dd>/.exec(body)![1]!;
    assert.match(field, new RegExp(`^${rates[0]!.toFixed(2)} litoshi/vB – ${rates[rates.length - 1]!.toFixed(2)} litoshi/vB, median ${median.toFixed(2)} litoshi/vB <span class="muted">\\(${rates.length} txs paying a fee\\)`));
    const bands = [...body.matchAll(/<tr data-band="([^"]+)"><td data-label="[^"]*">[^<]*<\/td><td data-label="Txs" class="num">(\d+)<\/td>/g)].map((m) => [m[1], Number(m[2])] as const);
    assert.equal(bands.reduce((a, [, n]) => a + n, 0), rates.length, 'every paying tx in one band');
    assert.ok(body.includes('id="block-fee-histogram"'));
  });

  it('no serious accessibility violations in either theme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context } = await watchedPage(chain.browser, { colorScheme });
      try {
        for (const path of ['/', `/${SLUG}`, `/${SLUG}/mempool`]) {
          await page.goto(chain.serve.url + path);
          assert.deepEqual(await seriousViolations(page), [], `${path} ${colorScheme}`);
        }
      } finally {
        await context.close();
      }
    }
  });
});
