/**
 * Live pages in headless Chromium, over the service's own realtime server, with no reload and no polling: a
 * mined block appears on `/` within 2 s; a payment adds a row and a new unconfirmed balance to the address page;
 * a tx page counts its first confirmation; a double spend shows its banner; the mempool page gains the new tx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { watchedPage } from '../helpers/browser.js';
import { conflictingSpend } from '../helpers/conflicting-spend.js';
import { startLitecoind, waitFor } from '../helpers/regtest-node.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain();
});
after(async () => chain?.close());

/** Opens a page, waits until its live regions are subscribed, and marks the document to prove there is no reload later. */
async function openLive(page: Page, path: string): Promise<void> {
  await page.goto(`${chain.serve.url}${path}`);
  await page.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
  await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
}

async function notReloaded(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded === true);
}

async function live(path: string, check: (page: Page) => Promise<void>): Promise<void> {
  const { page, problems, context } = await watchedPage(chain.browser);
  try {
    await openLive(page, path);
    await check(page);
    assert.ok(await notReloaded(page), 'updated in place, not reloaded');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

describe('live explorer pages', () => {
  it('a mined block appears on / within 2 s', async () => {
    await live('/', async (page) => {
      const [hash] = await chain.node.mine(1);
      const started = Date.now();
      await page.locator(`#net-${SLUG} table a[href="/${SLUG}/block/${hash}"]`).waitFor({ timeout: 2_000 });
      const height = await chain.node.rpc.call<number>('getblockcount');
      assert.equal((await page.locator(`#net-${SLUG} dt:text-is("Height") + dd`).innerText()).trim(), String(height));
      assert.ok(Date.now() - started < 2_000);
      assert.ok(await page.locator(`tr[data-key="${hash}"].flash`).count() === 1, 'the new row is highlighted');
    });
  });

  it('a payment adds a row and the new unconfirmed balance to the address page', async () => {
    const address = await chain.node.newAddress('bech32');
    await chain.node.send(address, '0.2');
    await chain.node.mine(1);
    await chain.synced();
    await live(`/${SLUG}/address/${address}`, async (page) => {
      const txid = await chain.node.send(address, '0.05');
      await page.locator(`#address-history tr[data-key="${txid}"]`).waitFor({ timeout: 5_000 });
      await page.locator('#address-summary dt:text-is("Unconfirmed") + dd .amount', { hasText: '0.05000000' }).waitFor({ timeout: 5_000 });
      assert.equal((await page.locator('#address-summary dt:text-is("Balance") + dd .amount').innerText()).trim(), '0.20000000');
    });
  });

  it('a tx page counts its first confirmation', async () => {
    const txid = await chain.node.send(await chain.node.newAddress('legacy'), '0.01');
    await chain.synced();
    await live(`/${SLUG}/tx/${txid}`, async (page) => {
      assert.match(await page.locator('#tx-status').innerText(), /Unconfirmed/);
      await chain.node.mine(1);
      await page.locator('#tx-status', { hasText: 'Confirmed · 1 confirmation' }).waitFor({ timeout: 5_000 });
      await chain.node.mine(1);
      await page.locator('#tx-status', { hasText: 'Confirmed · 2 confirmations' }).waitFor({ timeout: 5_000 });
    });
  });

  it('a double spend of an open tx shows its banner, naming the tx that won', async () => {
    // Another miner: a second node that mines the conflicting spend while cut off, then delivers its block.
    // (Litecoin Core has no RBF, and its generateblock cannot build MWEB blocks.)
    const miner = await startLitecoind({ wallet: false });
    try {
      await miner.connect(chain.node);
      const height = await chain.node.rpc.call<number>('getblockcount');
      await waitFor(async () => (await miner.rpc.call<number>('getblockcount')) === height, 30_000, 'the second node synced');
      await miner.rpc.call('setnetworkactive', [false]);
      const original = await chain.node.send(await chain.node.newAddress('bech32'), '0.4');
      await chain.synced();
      await live(`/${SLUG}/tx/${original}`, async (page) => {
        const conflicting = await conflictingSpend(chain.node, original);
        await miner.rpc.call('sendrawtransaction', [conflicting.hex]);
        await miner.mine(1, await chain.node.newAddress('bech32'));
        await miner.rpc.call('setnetworkactive', [true]);
        await miner.connect(chain.node);
        const banner = page.locator('#tx-status .banner.bad', { hasText: 'Double-spent' });
        await banner.waitFor({ timeout: 10_000 });
        assert.equal(await banner.locator(`a[href="/${SLUG}/tx/${conflicting.txid}"]`).count(), 1);
      });
    } finally {
      await miner.stop();
    }
  });

  it('the mempool page gains a new unconfirmed tx', async () => {
    await live(`/${SLUG}/mempool`, async (page) => {
      const txid = await chain.node.send(await chain.node.newAddress('p2sh-segwit'), '0.02');
      // the region refreshes at most every 5 s on a busy mempool
      await page.locator(`#mempool tr[data-key="${txid}"]`).waitFor({ timeout: 8_000 });
    });
  });
});
