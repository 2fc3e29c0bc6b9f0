/**
 * Issue 30's "Broken today" items on `outpoint serve` over litecoind -regtest: the mempool page's count, projection
 * and list come from one snapshot while txs arrive and blocks take them (polled under churn); a height above the
 * tip says so and offers the tip; plural forms ("1 tx"); only projected blocks that hold txs are shown; the block
 * page's confirmations and next-block link are live; regtest's difficulty is shown exactly beside the API's string.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { watchedPage } from '../helpers/browser.js';
import { NET, SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain();
});
after(async () => chain?.close());

const text = async (path: string): Promise<{ status: number; body: string }> => {
  const response = await fetch(chain.serve.url + path);
  return { status: response.status, body: await response.text() };
};

/** What one render of the mempool region says: the count, the projected blocks' txs, the listed rows. */
function mempoolFigures(fragment: string): { count: number; projected: number; rows: number; emptyBlocks: number } {
  const count = Number(/<dt>Unconfirmed txs<\/dt><dd>([\d,]+)<\/dd>/.exec(fragment)![1]!.replace(/,/g, ''));
  const projectedPart = fragment.slice(fragment.indexOf('<h2>Projected next blocks</h2>'), fragment.indexOf('<h2>Fee rates in the mempool</h2>'));
  const projectedCells = [...projectedPart.matchAll(/<td data-label="Txs" class="num">([\d,]+)<\/td>/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
  const newest = fragment.slice(fragment.indexOf('<h2>Newest unconfirmed transactions</h2>'));
  return {
    count,
    projected: projectedCells.reduce((a, b) => a + b, 0),
    rows: (newest.match(/<tr data-key=/g) ?? []).length,
    emptyBlocks: projectedCells.filter((n) => n === 0).length,
  };
}

describe('broken today, fixed', () => {
  it('the mempool page renders count, projection and list from one snapshot under churn', async () => {
    const seen: ReturnType<typeof mempoolFigures>[] = [];
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        for (let i = 0; i < 4; i++) await chain.node.send(await chain.node.newAddress('bech32'), '0.001');
        if (round % 3 === 2) await chain.node.mine(1);
      }
    })();
    const started = Date.now();
    // At least 12 s and 30 renders (a loaded machine renders fewer per second), at most a minute.
    while ((Date.now() - started < 12_000 || seen.length < 30) && Date.now() - started < 60_000) {
      const { status, body } = await text(`/${SLUG}/mempool?part=mempool`);
      assert.equal(status, 200);
      seen.push(mempoolFigures(body));
      await new Promise((r) => setTimeout(r, 50));
    }
    churning = false;
    await churn;
    assert.ok(new Set(seen.map((s) => s.count)).size >= 3, 'the mempool changed while polled');
    for (const s of seen) {
      // Regtest blocks hold the whole mempool: the projection's txs are the count, the list shows up to 50 of them.
      assert.equal(s.projected, s.count, JSON.stringify(s));
      assert.equal(s.rows, Math.min(50, s.count), JSON.stringify(s));
      assert.equal(s.emptyBlocks, 0, 'no empty projected block');
    }
  });

  it('a height above the tip says so, with both heights, and links the tip', async () => {
    await chain.synced();
    const tip = await chain.node.rpc.call<number>('getblockcount');
    const tipHash = await chain.node.rpc.call<string>('getblockhash', [tip]);
    const { status, body } = await text(`/${SLUG}/block/${tip + 5}`);
    assert.equal(status, 404);
    assert.match(body, new RegExp(`Height ${(tip + 5).toLocaleString('en-US')} is above the tip of Litecoin Regtest \\(height ${tip.toLocaleString('en-US')}\\)`));
    assert.ok(body.includes(`href="/${SLUG}/block/${tipHash}"`), 'the tip is offered');
    assert.doesNotMatch(body, /a block hash or block number is required/);
    // A height that exists still opens its block, and garbage is still the plain not-found page.
    assert.equal((await text(`/${SLUG}/block/${tip}`)).status, 200);
    assert.doesNotMatch((await text(`/${SLUG}/block/nonsense`)).body, /above the tip/);
  });

  it('plural forms, and only projected blocks with txs', async () => {
    await chain.node.mine(1);
    await chain.node.send(chain.addresses.legacy, '0.01');
    await chain.synced();
    const address = (await text(`/${SLUG}/address/${chain.addresses.legacy}`)).body;
    assert.match(address, /\(1 tx\)/);
    assert.doesNotMatch(address, /\b1 txs\b/);
    // The projector recomputes 500 ms after mempool events.
    let home = '';
    for (let i = 0; i < 40 && !/1 tx ·/.test(home); i++) {
      await new Promise((r) => setTimeout(r, 100));
      home = (await text('/')).body;
    }
    assert.match(home, /1 tx ·/);
    assert.doesNotMatch(home, /\b0 txs\b|Block \+2/);
    assert.doesNotMatch(home, /\b1 txs\b/);
  });

  it('the block page counts confirmations live and links the next block when it arrives', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      const tip = await chain.node.rpc.call<number>('getblockcount');
      await page.goto(`${chain.serve.url}/${SLUG}/block/${tip}`);
      await page.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
      assert.equal((await page.locator('#block-confirmations').innerText()).trim(), '1');
      assert.match(await page.locator('#block-next').innerText(), /none yet/);
      const [next] = await chain.node.mine(1);
      await page.locator('#block-confirmations', { hasText: /^2$/ }).waitFor({ timeout: 5_000 });
      await page.locator(`#block-next a[href="/${SLUG}/block/${next}"]`).waitFor({ timeout: 5_000 });
      // The arrow beside the title goes to the previous block.
      await page.click('nav[aria-label="Neighbouring blocks"] a[rel="prev"]');
      await page.waitForURL(new RegExp(`/${SLUG}/block/[0-9a-f]{64}$`));
      assert.match(await page.locator('h1').innerText(), new RegExp(`Block ${(tip - 1).toLocaleString('en-US')}`));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it("regtest's difficulty: the API's 8-decimal string, and the exact value beside it on the block page", async () => {
    const info = (await (await fetch(`${chain.serve.url}/api/v2/get_info/${NET}`)).json()) as { data: { mining_difficulty: string } };
    assert.equal(info.data.mining_difficulty, '0.00000000');
    assert.match((await text(`/${SLUG}/block/1`)).body, /0\.00000000 \(exactly 4\.66e-10\)/);
  });
});
