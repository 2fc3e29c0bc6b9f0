/**
 * The explorer's tx page with the P2P listener, in headless Chromium: two litecoind -regtest nodes cut apart, Outpoint
 * (in-process, as `outpoint serve` runs) indexing the first and listening to both. An unconfirmed tx's status says how
 * many peers announced it; a conflicting spend relayed only by the other node turns the open page's banner into
 * "Double spend detected" (no reload), naming the peer-only tx, whose own page links back; a block from the other
 * side then shows the payment double-spent, beaten by a confirmed tx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, launchChromium, watchedPage } from '../helpers/browser.js';
import { conflictingSpend } from '../helpers/conflicting-spend.js';
import { link, sameTip, serveOutpoint, unlink, type ServedOutpoint } from '../helpers/p2p-network.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const N = 'LTCTEST';
const SLUG = 'ltctest';
let ours: RegtestNode;
let theirs: RegtestNode;
let outpoint: ServedOutpoint;
let browser: Browser;

interface Confidence {
  nodes: number | null;
  nodes_sampled: number | null;
  is_double_spend: boolean | null;
}

const confidence = async (txid: string): Promise<Confidence | null> => {
  const answer = await outpoint.get<{ data: Confidence }>(`/api/v2/get_confidence/${N}/${txid}`);
  return answer.status === 200 ? answer.body.data : null;
};

before(async () => {
  [ours, theirs] = await Promise.all([
    startLitecoind({ funded: true, extraArgs: ['-connect=0'] }),
    startLitecoind({ wallet: false, extraArgs: ['-connect=0'] }),
  ]);
  await link(theirs, ours);
  await sameTip([ours, theirs]);
  // The partition: each node keeps its own mempool, and the listener hears both.
  await unlink(theirs, ours);
  outpoint = await serveOutpoint(N, ours, [ours, theirs]);
  await waitFor(() => (outpoint.runtime.networks[0]!.p2p.listener?.peers().length ?? 0) === 2, 20_000, 'listener connected to both nodes');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await outpoint?.stop();
  await Promise.all([ours?.stop(), theirs?.stop()]);
});

async function openLive(page: Page, path: string): Promise<void> {
  await page.goto(`${outpoint.url}${path}`);
  await page.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
  await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
}

describe('explorer tx page with P2P sightings', () => {
  let payment = '';

  it('an unconfirmed tx says how many of the sampled peers announced it', async () => {
    payment = await ours.send(await ours.newAddress('bech32'), '0.5');
    // Our node announces it at once (it whitelists loopback); the other node, cut off, never hears of it.
    await waitFor(async () => (await confidence(payment))?.nodes === 1, 10_000, 'our node announced the payment');
    const answer = (await confidence(payment))!;
    assert.deepEqual([answer.nodes, answer.nodes_sampled, answer.is_double_spend], [1, 2, false], 'one of the two peers sampled announced it');
    const { page, problems, context } = await watchedPage(browser);
    try {
      await page.goto(`${outpoint.url}/${SLUG}/tx/${payment}`);
      const banner = page.locator('#tx-status .banner.warn');
      assert.match(await banner.innerText(), /Unconfirmed · in the mempool since .* · confidence 0\.\d\d · announced by 1 of 2 peers/);
      await assertAccessible(page, 'tx page with P2P sightings');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a conflicting spend relayed only by the other node turns the open page double-spent, naming it; its page links back', async () => {
    const { page, problems, context } = await watchedPage(browser);
    try {
      await openLive(page, `/${SLUG}/tx/${payment}`);
      const rival = await conflictingSpend(ours, payment);
      await theirs.rpc.call('sendrawtransaction', [rival.hex]);
      const banner = page.locator('#tx-status .banner.bad', { hasText: 'Double spend detected' });
      await banner.waitFor({ timeout: 10_000 });
      const named = banner.locator(`a[href="/${SLUG}/tx/${rival.txid}"]`);
      assert.equal(await named.count(), 1);
      assert.match(await banner.innerText(), /\(unconfirmed, relayed by peers\)/);
      assert.ok(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded === true), 'updated in place');
      assert.equal(await outpoint.runtime.store.network(N).getTransaction(rival.txid), null, 'our node never took the rival');

      // The rival, known only from the peer: its page shows it, double-spent against our node's tx.
      await named.click();
      await page.waitForURL(`${outpoint.url}/${SLUG}/tx/${rival.txid}`);
      const back = page.locator('#tx-status .banner.bad', { hasText: 'Double spend detected' });
      assert.equal(await back.locator(`a[href="/${SLUG}/tx/${payment}"]`).count(), 1);
      assert.match(await back.innerText(), new RegExp(`${payment.slice(0, 8)}.*\\(unconfirmed\\)`));
      assert.equal(await page.locator('tr[id="out-0"]').count(), 1, 'its outputs are listed');
      await assertAccessible(page, 'peer-only tx page');

      // The other side mines the rival and the partition heals: the payment is beaten by a confirmed tx.
      await openLive(page, `/${SLUG}/tx/${payment}`);
      await theirs.mine(1, await ours.newAddress('bech32'));
      await link(theirs, ours);
      await sameTip([ours, theirs]);
      const lost = page.locator('#tx-status .banner.bad', { hasText: 'Double-spent.' });
      await lost.waitFor({ timeout: 10_000 });
      assert.match(await lost.innerText(), /\(confirmed\)/);
      assert.equal(await lost.locator(`a[href="/${SLUG}/tx/${rival.txid}"]`).count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
