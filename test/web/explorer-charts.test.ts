/**
 * The explorer's time charts (issue 30, "Missing" 4) on `outpoint serve` over litecoind -regtest:
 * - the mempool page's last 24 hours: every sample the chart lists equals what the API answered at sampling time
 *   (v2 get_info `unconfirmed_txs`, v3 network_info `mempool_txs`) and the node's own mempool (sizes, vsizes, fees), for a
 *   full mempool and, after a block, an empty one;
 * - the address page's balance over time: the balance after each block equals the running sums of v2
 *   get_tx_received and get_tx_spent, through receipts in several blocks and a spend.
 * axe in both themes, and 375 px without sideways scrolling, on both pages. Screenshots of both charts (figures open)
 * go to .tmp/test-output/explorer/charts-*.png (or $OUTPOINT_TEST_OUTPUT).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/outpoint-cli.js';
import { waitFor } from '../helpers/regtest-node.js';
import { NET, SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

const OUTPUT = process.env['OUTPOINT_TEST_OUTPUT'] ?? new URL('../../.tmp/test-output/explorer', import.meta.url).pathname;

let chain: ExplorerChain;
let apiKey: string;
before(async () => {
  // A sample a second, so the test sees several within seconds (the default is one a minute).
  chain = await startExplorerChain({ networkKeys: 'mempool_sample_seconds = 1' });
  const created = await runCli(['accounts', 'create', '--email', 'charts@example.com', '--plan', 'free', '--config', chain.config]);
  apiKey = /(opk_[A-Za-z0-9_-]{43})/.exec(created.stdout)![1]!;
});
after(async () => chain?.close());

async function api<T>(path: string, key = false): Promise<T> {
  const response = await fetch(chain.serve.url + path, key ? { headers: { 'API-KEY': apiKey } } : {});
  assert.equal(response.status, 200, path);
  return ((await response.json()) as { data: T }).data;
}

const digits = (text: string): number => Number(text.replace(/[^0-9]/g, ''));
const coins = (text: string): string => /-?[0-9]+\.[0-9]{8}/.exec(text)![0];
const toCoins = (sats: bigint): string => `${sats < 0n ? '-' : ''}${(sats < 0n ? -sats : sats) / 100_000_000n}.${String((sats < 0n ? -sats : sats) % 100_000_000n).padStart(8, '0')}`;
const sats = (value: string | number): bigint => BigInt(Math.round(Number(value) * 1e8));

interface ApiFigures { readonly txs: number; readonly bytes: number; readonly vbytes: number; readonly fees: string }

/** The API's mempool figures once the v3 projection has settled on the node's mempool, and the node's vsizes and fees. */
async function apiFigures(): Promise<ApiFigures> {
  const mempool = await chain.node.rpc.call<Record<string, { vsize: number; fees: { base: number } }>>('getrawmempool', [true]);
  const entries = Object.values(mempool);
  let info = await api<{ unconfirmed_txs: number }>(`/api/v2/get_info/${NET}`);
  let v3 = await api<{ mempool: { mempool_txs: number } }>(`/api/v3/network_info/${NET}`, true);
  await waitFor(async () => {
    info = await api(`/api/v2/get_info/${NET}`);
    v3 = await api(`/api/v3/network_info/${NET}`, true);
    return info.unconfirmed_txs === entries.length && v3.mempool.mempool_txs === entries.length;
  }, 20_000, 'the API answers with the node mempool');
  const fees = entries.reduce((sum, e) => sum + sats(e.fees.base), 0n);
  // Serialized sizes from the node (v3 mempool_size counts a tx the projection met before the index by its vsize).
  let bytes = 0;
  for (const txid of Object.keys(mempool)) bytes += (await chain.node.rpc.call<{ size: number }>('getrawtransaction', [txid, true])).size;
  return { txs: info.unconfirmed_txs, bytes, vbytes: entries.reduce((s, e) => s + e.vsize, 0), fees: toCoins(fees) };
}

interface SampleRow { readonly time: number; readonly txs: number; readonly bytes: number; readonly vbytes: number; readonly fees: string }

async function sampleRows(page: Page): Promise<SampleRow[]> {
  return page.locator('#mempool-history tbody tr').evaluateAll((rows) => rows.map((r) => {
    const cells = [...r.querySelectorAll('td')].map((c) => c.textContent ?? '');
    return { time: Number(r.getAttribute('data-time')), cells };
  })).then((rows) => rows.map(({ time, cells }) => ({ time, txs: digits(cells[1]!), bytes: digits(cells[2]!), vbytes: digits(cells[3]!), fees: coins(cells[4]!) })));
}

/** Reloads the mempool page until it lists a sample taken after `after` (UNIX seconds); returns that newest sample. */
async function sampleAfter(page: Page, after: number): Promise<{ newest: SampleRow; rows: SampleRow[] }> {
  let rows: SampleRow[] = [];
  await waitFor(async () => {
    await page.goto(`${chain.serve.url}/${SLUG}/mempool?samples=1`);
    rows = await sampleRows(page);
    return rows.length > 0 && rows[0]!.time > after;
  }, 30_000, 'a new mempool sample on the page', 500);
  return { newest: rows[0]!, rows };
}

describe('time charts', () => {
  it("the mempool page's last 24 hours equal the API's figures at each sampling time", async () => {
    for (const rate of [10, 20, 30]) await chain.node.rpc.call('sendtoaddress', [await chain.node.newAddress('bech32'), 0.02, '', '', false, false, null, 'unset', false, rate]);
    await chain.synced();
    const full = await apiFigures();
    assert.ok(full.txs >= 4, 'the fixture tx and three more');
    const fullAt = Math.floor(Date.now() / 1000);
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      // The sample after the API answered: nothing changed the mempool between the two.
      const first = await sampleAfter(page, fullAt);
      assert.deepEqual({ ...first.newest, time: 0 }, { ...full, time: 0 });
      assert.equal(await page.locator('#mempool-history svg polyline.line, #mempool-history svg circle.dot').count(), 2, 'two series drawn');
      assert.match(await page.locator('#mempool-history figcaption').innerText(), new RegExp(`Last sample .*: ${full.txs} txs, ${full.vbytes.toLocaleString('en-US')} vB`));
      // A block takes the mempool: the next samples say it is empty, and the earlier ones stay on the chart.
      await chain.node.mine(1);
      await chain.synced();
      const empty = await apiFigures();
      assert.equal(empty.txs, 0);
      const { newest, rows } = await sampleAfter(page, Math.floor(Date.now() / 1000));
      assert.deepEqual({ ...newest, time: 0 }, { txs: 0, bytes: 0, vbytes: 0, fees: '0.00000000', time: 0 });
      assert.ok(rows.some((r) => r.time === first.newest.time && r.txs === full.txs), 'the full sample is still listed');
      const times = rows.map((r) => r.time);
      assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
      // Without ?samples=1 the table lists the newest sample and the last of each earlier hour, linking to them all.
      await page.goto(`${chain.serve.url}/${SLUG}/mempool`);
      const hourly = await sampleRows(page);
      assert.ok(hourly.length >= 1 && hourly.length <= 25);
      assert.ok(hourly[0]!.time >= newest.time);
      for (const [i, r] of hourly.entries()) if (i > 0) assert.notEqual(Math.floor(r.time / 3600), Math.floor(hourly[i - 1]!.time / 3600), 'one row an hour');
      if (rows.length > hourly.length) assert.equal(await page.locator('#mempool-history a[href$="samples=1#mempool-history"]').count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it("the address page's balance after each block equals the running sums of v2 get_tx_received and get_tx_spent", async () => {
    const address = await chain.node.newAddress('bech32');
    await chain.node.send(address, '1.0');
    await chain.node.send(address, '0.5');
    await chain.node.mine(1);
    // The wallet must not pay the next payment from this address's coins: lock them until the spend below.
    const funded = await chain.node.rpc.call<{ txid: string; vout: number }[]>('listunspent', [1, 9999, [address]]);
    await chain.node.rpc.call('lockunspent', [false, funded.map((u) => ({ txid: u.txid, vout: u.vout }))]);
    await chain.node.send(address, '0.25');
    await chain.node.mine(1);
    // Spend one of its outputs (0.5) back to the wallet: a block where the balance falls.
    await chain.node.rpc.call('lockunspent', [true, funded.map((u) => ({ txid: u.txid, vout: u.vout }))]);
    const unspent = await chain.node.rpc.call<{ txid: string; vout: number; amount: number }[]>('listunspent', [1, 9999, [address]]);
    const half = unspent.find((u) => u.amount === 0.5)!;
    const raw = await chain.node.rpc.call<string>('createrawtransaction', [[{ txid: half.txid, vout: half.vout }], [{ [await chain.node.newAddress('bech32')]: 0.4999 }]]);
    const signed = await chain.node.rpc.call<{ hex: string }>('signrawtransactionwithwallet', [raw]);
    await chain.node.rpc.call('sendrawtransaction', [signed.hex]);
    await chain.node.mine(1);
    await chain.node.mine(1);
    await chain.synced();

    const tip = (await api<{ blocks: number }>(`/api/v2/get_info/${NET}`)).blocks;
    type Item = { value: string; confirmations: number };
    const received = (await api<{ txs: Item[] }>(`/api/v2/get_tx_received/${NET}/${address}`)).txs;
    const spent = (await api<{ txs: Item[] }>(`/api/v2/get_tx_spent/${NET}/${address}`)).txs;
    const change = new Map<number, bigint>();
    for (const [items, sign] of [[received, 1n], [spent, -1n]] as const) {
      for (const i of items) change.set(tip - i.confirmations + 1, (change.get(tip - i.confirmations + 1) ?? 0n) + sign * sats(i.value));
    }
    let running = 0n;
    const expected = [...change.keys()].sort((a, b) => a - b).map((height) => {
      running += change.get(height)!;
      return { height, change: toCoins(change.get(height)!), balance: toCoins(running) };
    });
    assert.equal(expected.length, 3, 'three blocks touched the address');
    assert.equal(expected[2]!.balance, '1.25000000');

    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems, context } = await watchedPage(chain.browser, { colorScheme });
      try {
        await page.goto(`${chain.serve.url}/${SLUG}/address/${address}`);
        const shown = await page.locator('#balance-history tbody tr').evaluateAll((rows) => rows.map((r) => {
          const cells = [...r.querySelectorAll('td')].map((c) => c.textContent ?? '');
          return { height: Number(r.getAttribute('data-height')), cells };
        }));
        assert.deepEqual(shown.map((r) => ({ height: r.height, change: coins(r.cells[2]!), balance: coins(r.cells[3]!) })), [...expected].reverse());
        assert.equal(await page.locator('#balance-history svg polyline.line').count(), 1);
        assert.match(await page.locator('#balance-history figcaption').innerText(), /from all 4 confirmed txs/);
        await page.locator('#balance-history summary').click();
        assert.deepEqual(await seriousViolations(page), [], `address page ${colorScheme}`);
        mkdirSync(OUTPUT, { recursive: true });
        await page.locator('#balance-history').screenshot({ path: join(OUTPUT, `charts-balance-${colorScheme}.png`) });
        await page.goto(`${chain.serve.url}/${SLUG}/mempool`);
        await page.locator('#mempool-history summary').click();
        assert.deepEqual(await seriousViolations(page), [], `mempool page ${colorScheme}`);
        await page.locator('#mempool-history').screenshot({ path: join(OUTPUT, `charts-mempool-${colorScheme}.png`) });
        // At 375 px neither page is wider than the screen.
        await page.setViewportSize({ width: 375, height: 800 });
        for (const path of [`/${SLUG}/mempool`, `/${SLUG}/address/${address}`]) {
          await page.goto(chain.serve.url + path);
          await page.locator('details.chart-figures summary').first().click();
          assert.equal(await page.evaluate<number>('Math.max(0, document.documentElement.scrollWidth - window.innerWidth)'), 0, `${path} fits 375 px`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
});
