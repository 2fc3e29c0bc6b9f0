/**
 * The explorer's wallet page (`/{net}/xpub/{…}`) on `outpoint serve` over litecoind regtest, in headless Chromium:
 * reached from the search box with JavaScript on and off, it shows the figures and history the v3 xpub routes answer
 * (same service), follows `?gap=`, refuses another network's key with a 404 page saying why; a 2-of-3
 * wsh(sortedmulti) wallet shows k of n and each key's origin, with JavaScript on and off; axe in both themes, no
 * sideways scrolling at 375 px, screenshots at 1280 and 375 px (.tmp/test-output/explorer/wallet-*.png). Issue 50: the
 * multisig page goes live on its wallet channel once a wallet webhook watches it: a payment shows up in its figures
 * and first transactions page without a reload.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HDKey } from '@scure/bip32';
import type { Page } from 'playwright-core';
import { getNetworkParams, scriptToAddress } from '../../src/chains/addressing.js';
import { ChainDerivation } from '../../src/chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../../src/chains/wallet/wallet-descriptor.js';
import { seriousViolations, watchedPage } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait-for.js';
import { runCli } from '../helpers/outpoint-cli.js';
import { NET, SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

const OUTPUT = process.env.OUTPOINT_TEST_OUTPUT ?? new URL('../../.tmp/test-output/explorer', import.meta.url).pathname;
const PARAMS = getNetworkParams(NET, 'regtest');
const TEST_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
/** An account key of a fixed seed as a plain tpub (so P2PKH, SLIP-132), watched only: the node pays its addresses, it holds none of its keys. */
const TPUB = HDKey.fromMasterSeed(Buffer.alloc(32, 7), TEST_VERSIONS).derive("m/84'/1'/0'").publicExtendedKey;

/** Three cosigners' BIP48 accounts (m/48'/1'/0'/2'), each with its origin: a 2-of-3 wsh(sortedmulti) multipath wallet. */
const COSIGNERS = [11, 12, 13].map((seed) => {
  const master = HDKey.fromMasterSeed(Buffer.alloc(32, seed), TEST_VERSIONS);
  return { fingerprint: master.fingerprint.toString(16).padStart(8, '0'), tpub: master.derive("m/48'/1'/0'/2'").publicExtendedKey };
});
const MULTISIG = `wsh(sortedmulti(2,${COSIGNERS.map((c) => `[${c.fingerprint}/48h/1h/0h/2h]${c.tpub}/<0;1>/*`).join(',')}))`;

let chain: ExplorerChain;
let apiKey: string;
const address = (chainIndex: number, index: number, wallet = TPUB): string =>
  scriptToAddress(PARAMS, new ChainDerivation(parseWalletDescriptor(PARAMS, wallet), chainIndex).script(index))!;

before(async () => {
  // Wallet hooks to a loopback URL (nobody answers: the hook only makes the writer watch the wallet for its channel).
  chain = await startExplorerChain({ tables: '[webhooks]\nallow_private_targets = true' });
  await chain.node.send(address(0, 0), '0.5');
  await chain.node.send(address(0, 2), '0.25');
  await chain.node.send(address(1, 0), '0.1');
  await chain.node.send(address(0, 0, MULTISIG), '0.3');
  await chain.node.send(address(0, 1, MULTISIG), '0.2');
  await chain.node.mine(1);
  await chain.node.send(address(0, 3), '0.05');
  await chain.synced();
  const created = await runCli(['accounts', 'create', '--email', 'wallet-page@example.com', '--plan', 'free', '--config', chain.config]);
  apiKey = /(opk_[A-Za-z0-9_-]{43})/.exec(created.stdout)![1]!;
  mkdirSync(OUTPUT, { recursive: true });
});
after(async () => chain?.close());

async function api(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${chain.serve.url}${path}`, { headers: { 'api-key': apiKey } });
  assert.equal(res.status, 200, path);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

const figure = async (page: Page, label: string): Promise<string> => (await page.locator(`dl.kv dt:text-is("${label}") + dd`).first().innerText()).trim();

async function searchFor(page: Page, text: string): Promise<void> {
  await page.goto(`${chain.serve.url}/`);
  await page.fill('#site-search', text);
  await Promise.all([page.waitForURL(`**/${SLUG}/xpub/**`), page.click('form.search button[type="submit"]')]);
}

describe('the wallet page', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`is reached from search and shows the v3 figures and history (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page, problems, context } = await watchedPage(chain.browser, { javaScriptEnabled });
      try {
        await searchFor(page, TPUB);
        assert.equal(new URL(page.url()).pathname, `/${SLUG}/xpub/${TPUB}`);
        const v3 = await api(`/api/v3/xpub/${NET}/${TPUB}`);
        assert.equal(await figure(page, 'Balance'), `${v3.confirmed_balance} LTC`);
        assert.equal(v3.confirmed_balance, '0.85000000');
        assert.equal(await figure(page, 'Unconfirmed'), `${v3.unconfirmed_balance} LTC`);
        assert.equal(await figure(page, 'Used addresses'), String(v3.used_addresses));
        assert.equal(v3.used_addresses, 4);
        assert.equal((await page.locator('#descriptor').innerText()).trim(), v3.descriptor);
        assert.match(await figure(page, 'Receive'), new RegExp(`${(v3.next_receive_address as { address: string }).address} \\(0/4\\)`));
        const txs = (await api(`/api/v3/xpub/${NET}/${TPUB}/transactions/1`)).transactions as { hash: string; balance_change: string }[];
        const rows = await page.locator('table[aria-label="Transactions of this wallet"] tbody tr, [aria-label="Transactions of this wallet"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key')));
        assert.deepEqual(rows, txs.map((t) => t.hash), 'the same transactions in the same order');
        const used = (await api(`/api/v3/xpub/${NET}/${TPUB}/addresses`)).addresses as { address: string; path: string }[];
        for (const a of used) assert.equal(await page.locator(`#main a[href="/${SLUG}/address/${a.address}"]`).count() > 0, true, a.path);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  for (const javaScriptEnabled of [true, false]) {
    it(`a 2-of-3 multisig wallet: k of n, each key with its origin, the v3 figures (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page, problems, context } = await watchedPage(chain.browser, { javaScriptEnabled });
      try {
        await searchFor(page, MULTISIG);
        const v3 = await api(`/api/v3/xpub/${NET}/${encodeURIComponent(MULTISIG)}`);
        assert.equal(v3.confirmed_balance, '0.50000000');
        assert.equal(await figure(page, 'Balance'), `${v3.confirmed_balance} LTC`);
        assert.equal(await figure(page, 'Received from outside'), `${v3.confirmed_received_external} LTC`);
        assert.equal((await page.locator('#policy').innerText()).trim(), '2 of 3 multisig · wsh(sortedmulti)');
        assert.equal((await page.locator('#descriptor').innerText()).trim(), v3.descriptor);
        const keys = await page.locator('[aria-label="Keys of this wallet"] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
        assert.deepEqual(keys, COSIGNERS.map((c, i) => [String(i + 1), c.fingerprint, 'm/48h/1h/0h/2h', c.tpub, '<0;1>/*']));
        assert.match(await figure(page, 'Receive'), new RegExp(`${address(0, 2, MULTISIG)} \\(0/2\\)`));
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  it('the multisig page goes live: a payment to the watched wallet shows in its figures and transactions without a reload', async () => {
    const made = await fetch(`${chain.serve.url}/api/v3/webhooks`, {
      method: 'POST', headers: { 'api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ network: NET, event: 'wallet', url: 'http://127.0.0.1:9/nobody', descriptor: MULTISIG }),
    });
    assert.equal(made.status, 200, await made.clone().text());
    const { wallet } = ((await made.json()) as { data: { wallet: string } }).data;
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the writer's index of hooks reloads every 2 s
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/xpub/${encodeURIComponent(MULTISIG)}`);
      assert.equal(await page.locator('#wallet-figures').getAttribute('data-live-on').then((v) => v!.split(' ')[0]), `wallet_${SLUG}_${wallet}:balance_update`);
      await page.waitForSelector('html[data-live="ready"]', { timeout: 15_000 });
      assert.equal(await figure(page, 'Unconfirmed'), '0.00000000 LTC');
      const txid = await chain.node.send(address(0, 2, MULTISIG), '0.07');
      await page.waitForSelector(`#wallet-transactions tr[data-key="${txid}"]`, { timeout: 30_000 });
      await waitFor(async () => (await figure(page, 'Unconfirmed')) === '0.07000000 LTC', 30_000, 'the figures updated live');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('a gap of 1 stops after receive index 0: the page rescans with the form', async () => {
    const { page, context } = await watchedPage(chain.browser, { javaScriptEnabled: false });
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/xpub/${TPUB}`);
      await page.fill('#gap', '1');
      await Promise.all([page.waitForURL('**gap=1'), page.click('.gap-form button[type="submit"]')]);
      assert.equal(await figure(page, 'Used addresses'), '2', 'receive 0 and change 0');
      assert.equal(await figure(page, 'Balance'), `${(await api(`/api/v3/xpub/${NET}/${TPUB}?gap=1`)).confirmed_balance} LTC`);
    } finally {
      await context.close();
    }
  });

  it('another network\'s key finds nothing; in the URL it is a 404 page saying why', async () => {
    const { page, context } = await watchedPage(chain.browser);
    try {
      const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
      const search = await page.goto(`${chain.serve.url}/search?q=${zpub}`);
      assert.equal(search!.status(), 404);
      const direct = await page.goto(`${chain.serve.url}/${SLUG}/xpub/${zpub}`);
      assert.equal(direct!.status(), 404);
      assert.match(await page.locator('#main').innerText(), /a zpub key belongs to Bitcoin, Litecoin, not Litecoin Regtest/);
    } finally {
      await context.close();
    }
  });

  it('no serious accessibility violations in either theme; no sideways scrolling at 375 px; screenshots (single key and multisig)', async () => {
    for (const [wallet, name] of [[TPUB, 'wallet'], [MULTISIG, 'wallet-multisig']] as const) {
      const path = `/${SLUG}/xpub/${encodeURIComponent(wallet)}`;
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const [width, label] of [[1280, 'desktop'], [375, '375px']] as const) {
          const { page, problems, context } = await watchedPage(chain.browser, { colorScheme, viewport: { width, height: 800 } });
          try {
            await page.goto(chain.serve.url + path);
            assert.deepEqual(await seriousViolations(page), [], `${name}: ${colorScheme} at ${width} px`);
            const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
            assert.ok(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
            await page.screenshot({ path: join(OUTPUT, `${name}-${label}-${colorScheme}.png`), fullPage: true });
            assert.deepEqual(problems, []);
          } finally {
            await context.close();
          }
        }
      }
    }
  });
});
