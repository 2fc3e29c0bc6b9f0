/**
 * Issue 32: the explorer's live script after a lost connection. The page's websocket is cut (Playwright's
 * routeWebSocket closes it and refuses new ones) while a payment arrives; once it may connect again, the script
 * asks the catch-up feed for the address channel's missed events (after the last event_id it saw) and the payment's
 * row appears, with no reload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WebSocketRoute } from 'playwright-core';
import { watchedPage } from '../helpers/browser.js';
import { waitFor } from '../helpers/regtest-node.js';
import { SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain();
});
after(async () => chain?.close());

describe('explorer live script after a reconnect', () => {
  it('reads the missed payment from /api/v2/events and shows it without a reload', async () => {
    const address = await chain.node.newAddress('bech32');
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      let blocked = false;
      const open: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/app\//, (ws) => {
        if (blocked) {
          void ws.close({ code: 4200, reason: 'test: offline' });
          return;
        }
        open.push(ws);
        ws.connectToServer();
      });
      const feedCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/v2/events/')) feedCalls.push(request.url());
      });
      await page.goto(`${chain.serve.url}/${SLUG}/address/${address}`);
      await page.locator('html[data-live="ready"]').waitFor({ timeout: 10_000 });
      await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));

      // A payment while connected: the script learns the channel's last event_id.
      const first = await chain.node.send(address, '0.05');
      await page.locator(`#address-history tr[data-key="${first}"]`).waitFor({ timeout: 10_000 });

      blocked = true;
      for (const ws of open.splice(0)) await ws.close({ code: 4200, reason: 'test: offline' });
      const missed = await chain.node.send(address, '0.07');
      await chain.synced();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(await page.locator(`#address-history tr[data-key="${missed}"]`).count(), 0, 'not shown while offline');
      blocked = false;

      await page.locator(`#address-history tr[data-key="${missed}"]`).waitFor({ timeout: 30_000 });
      await waitFor(() => feedCalls.some((u) => u.includes(`channel=address_${SLUG}_${address}`) && /after=\d+/.test(u)), 5_000, 'a feed call');
      assert.ok(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded === true), 'no reload');
      // While offline pusher-js also tries its wss transport, which a plain-HTTP server cannot answer: the console says so.
      assert.deepEqual(problems.filter((p) => !/WebSocket connection to .* failed/.test(p)), []);
    } finally {
      await context.close();
    }
  });
});
