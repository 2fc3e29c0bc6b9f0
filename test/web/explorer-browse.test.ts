/**
 * Browsing the explorer in headless Chromium against `outpoint serve` on a real litecoind -regtest (MWEB
 * active): the walk `/` → block → tx → input's address → short link → back with every value checked against
 * the node's own RPC answers, with JavaScript on and off; search for every kind of input including garbage and
 * HTML injection; the MWEB part of a block; CSV export; HTML and JSON 404s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import { watchedPage } from '../helpers/browser.js';
import { NET, SLUG, startExplorerChain, type ExplorerChain } from './explorer-fixture.js';

let chain: ExplorerChain;
before(async () => {
  chain = await startExplorerChain();
});
after(async () => chain?.close());

/** The text of the <dd> after the <dt> labelled `label` (first match). */
async function field(page: Page, label: string): Promise<string> {
  return (await page.locator(`dl.kv dt:text-is("${label}") + dd`).first().innerText()).trim();
}

/** An amount on the page (in the <dd> labelled `label`), as the APIs write it. */
async function amountIn(page: Page, label: string): Promise<string> {
  return (await page.locator(`dl.kv dt:text-is("${label}") + dd .amount`).first().innerText()).trim();
}

const exact = (value: string | number): string => formatCoins(parseCoins(String(value)));
const digits = (text: string): string => text.replace(/[^0-9]/g, '');

interface NodeTx {
  vin: { txid: string; vout: number }[];
  vout: { value: string; n: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
  confirmations: number;
}

async function walk(page: Page, problems: string[]): Promise<void> {
  const { node, serve, paymentTxid, paymentHeight } = chain;
  const rpc = node.rpc;
  await page.goto(`${serve.url}/`);
  const card = page.locator(`#net-${SLUG}`);
  assert.equal(digits(await card.locator('dt:text-is("Height") + dd').innerText()), String(await rpc.call<number>('getblockcount')));
  assert.equal(digits(await card.locator('dt:text-is("Unconfirmed txs") + dd a').innerText()), String((await rpc.call<string[]>('getrawmempool')).length));

  assert.equal(await card.locator(`table tbody tr:first-child td a[href^="/${SLUG}/address/"]`).count(), 1, 'the newest block names its miner');
  // → the payment's block, from the latest-blocks table
  await card.locator('table').getByRole('link', { name: String(paymentHeight), exact: true }).click();
  const blockHash = await rpc.call<string>('getblockhash', [paymentHeight]);
  await page.waitForURL(`**/${SLUG}/block/${blockHash}`);
  const nodeBlock = await rpc.call<{ nTx: number; confirmations: number; size: number; merkleroot: string; previousblockhash: string; tx: string[] }>('getblock', [blockHash, 1]);
  assert.equal(await field(page, 'Hash'), blockHash);
  assert.equal(await field(page, 'Transactions'), String(nodeBlock.nTx));
  assert.equal(await field(page, 'Confirmations'), String(nodeBlock.confirmations));
  assert.equal(await field(page, 'Merkle root'), nodeBlock.merkleroot);
  assert.match(await field(page, 'Size'), new RegExp(`\\(${nodeBlock.size.toLocaleString('en-US')} bytes`));
  // The miner as v3 names it: the address the coinbase's first paying output pays (regtest coinbases carry no pool tag).
  const coinbase = await rpc.call<NodeTx>('getrawtransaction', [nodeBlock.tx[0], true, blockHash], { exactDecimals: true });
  const paid = coinbase.vout.find((o) => Number(o.value) > 0 && (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]));
  const minerAddress = paid!.scriptPubKey.address ?? paid!.scriptPubKey.addresses![0]!;
  assert.equal(await field(page, 'Miner'), minerAddress);
  assert.equal(await page.locator(`dl.kv a[href="/${SLUG}/address/${minerAddress}"]`).count(), 1, 'the miner links to its address page');

  // → the payment tx
  await page.locator(`a[href="/${SLUG}/tx/${paymentTxid}"]`).first().click();
  await page.waitForURL(`**/${SLUG}/tx/${paymentTxid}`);
  const tx = await rpc.call<NodeTx>('getrawtransaction', [paymentTxid, true, blockHash], { exactDecimals: true });
  const walletTx = await node.wallet.call<{ fee: string }>('gettransaction', [paymentTxid], { exactDecimals: true });
  assert.match(await page.locator('#tx-status').innerText(), new RegExp(`Confirmed · ${tx.confirmations} confirmation`));
  assert.equal(await amountIn(page, 'Fee'), exact(walletTx.fee).replace('-', ''));
  const outputs = page.locator('#outputs + .table-wrap tbody tr');
  assert.equal(await outputs.count(), tx.vout.length);
  for (const out of tx.vout) {
    const row = page.locator(`#out-${out.n}`);
    assert.equal((await row.locator('.amount').innerText()).trim(), exact(out.value), `output ${out.n} value`);
    const address = out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0];
    if (address) assert.match(await row.innerText(), new RegExp(address));
  }
  const input = tx.vin[0]!;
  const prev = await rpc.call<NodeTx>('getrawtransaction', [input.txid, true], { exactDecimals: true });
  const spent = prev.vout[input.vout]!;
  const inputAddress = spent.scriptPubKey.address ?? spent.scriptPubKey.addresses![0]!;
  assert.equal((await page.locator('#in-0 .amount').innerText()).trim(), exact(spent.value));

  // → the input's address
  await page.locator(`#in-0 a[href="/${SLUG}/address/${inputAddress}"]`).click();
  await page.waitForURL(`**/${SLUG}/address/${inputAddress}`);
  const scan = await rpc.call<{ total_amount: string }>('scantxoutset', ['start', [`addr(${inputAddress})`]], { exactDecimals: true });
  assert.equal(await amountIn(page, 'Balance'), exact(scan.total_amount), 'confirmed balance equals the node\'s UTXO set');
  assert.ok(await page.locator(`#address-history a[href="/${SLUG}/tx/${paymentTxid}"]`).count() > 0, 'the payment is in the history');

  // → its short link (a redirect to the same page)
  const shortLink = page.locator('a[href^="/s/"]');
  const shortPath = await shortLink.getAttribute('href');
  assert.match(shortPath ?? '', new RegExp(`^/s/${NET}/[1-9A-HJ-NP-Za-km-z]{3,6}$`));
  assert.equal(await shortLink.innerText(), `http://explorer.test${shortPath}`);
  await shortLink.click();
  await page.waitForURL(`**/${SLUG}/address/${inputAddress}`);
  assert.equal(new URL(page.url()).pathname, `/${SLUG}/address/${inputAddress}`);

  // ← back through the walk
  await page.goBack();
  assert.equal(new URL(page.url()).pathname, `/${SLUG}/address/${inputAddress}`);
  await page.goBack();
  assert.equal(new URL(page.url()).pathname, `/${SLUG}/tx/${paymentTxid}`);
  assert.ok((await page.locator('h1').innerText()).startsWith('Transaction'));
  await page.goBack();
  assert.equal(new URL(page.url()).pathname, `/${SLUG}/block/${blockHash}`);
  assert.deepEqual(problems, []);
}

describe('explorer walk checked against the node', () => {
  it('with JavaScript', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await walk(page, problems);
    } finally {
      await context.close();
    }
  });

  it('with JavaScript switched off (pages are complete without it)', async () => {
    const { page, problems, context } = await watchedPage(chain.browser, { javaScriptEnabled: false });
    try {
      await walk(page, problems);
    } finally {
      await context.close();
    }
  });
});

describe('explorer search', () => {
  async function search(page: Page, query: string): Promise<number> {
    await page.goto(`${chain.serve.url}/${SLUG}`);
    await page.locator('#site-search').fill(query);
    const [response] = await Promise.all([page.waitForNavigation(), page.locator('#site-search').press('Enter')]);
    return response?.status() ?? 0;
  }

  it('finds txids, block hashes, heights, addresses and short forms', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      const hash432 = chain.activation.hash;
      const expectations: [string, string][] = [
        [chain.paymentTxid, `/${SLUG}/tx/${chain.paymentTxid}`],
        [chain.unconfirmedTxid.toUpperCase(), `/${SLUG}/tx/${chain.unconfirmedTxid}`],
        [hash432, `/${SLUG}/block/${hash432}`],
        ['432', `/${SLUG}/block/${hash432}`],
        [` ${chain.addresses.p2sh} `, `/${SLUG}/address/${chain.addresses.p2sh}`],
        [chain.addresses.bech32.toUpperCase(), `/${SLUG}/address/${chain.addresses.bech32}`],
        [`litecoin:${chain.addresses.legacy}?amount=1`, `/${SLUG}/address/${chain.addresses.legacy}`],
      ];
      for (const [query, path] of expectations) {
        assert.equal(await search(page, query), 200, query);
        assert.equal(new URL(page.url()).pathname, path, query);
      }
      const short = (await (await fetch(`${chain.serve.url}/api/v2/short/${NET}/${chain.addresses.legacy}`)).json()) as { data: { short: string } };
      await search(page, short.data.short);
      assert.equal(new URL(page.url()).pathname, `/${SLUG}/address/${chain.addresses.legacy}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('garbage and HTML injection get the friendly 404 page, escaped, with nothing executed', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      const injections = [
        'no such thing',
        '<script>alert(1)</script>',
        '"><img src=x onerror=alert(2)>',
        `${chain.addresses.legacy}<svg onload=alert(3)>`,
        "m'><script>alert(4)</script>",
        '9'.repeat(64),
      ];
      for (const query of injections) {
        assert.equal(await search(page, query), 404, query);
        assert.equal(await page.locator('h1').innerText(), 'Nothing found');
        assert.equal(await page.locator('#error-search').inputValue(), query, 'the query is kept, as text');
        assert.ok((await page.locator('main').innerText()).includes(query.trim()), 'shown as text');
        assert.equal(await page.locator('main script, main img, main svg[onload]').count(), 0, 'no injected element');
      }
      assert.deepEqual(problems, [], 'no dialog, no console error');
    } finally {
      await context.close();
    }
  });
});

describe('explorer pages and answers', () => {
  it('the MWEB activation block shows its HogEx and the peg-in', async () => {
    const { page, problems, context } = await watchedPage(chain.browser);
    try {
      await page.goto(`${chain.serve.url}/${SLUG}/block/${chain.activation.height}`);
      const mweb = page.locator('section[aria-labelledby="mweb-title"]');
      const block = await chain.node.rpc.call<{ tx: string[] }>('getblock', [chain.activation.hash, 1]);
      assert.equal(await mweb.locator('dt:text-is("HogEx transaction") + dd').innerText(), block.tx[block.tx.length - 1]);
      const pegIn = await chain.node.rpc.call<{ vout: { value: string; scriptPubKey: { type: string } }[] }>('getrawtransaction', [chain.activation.pegInTxid, true], { exactDecimals: true });
      const pegged = pegIn.vout.find((o) => o.scriptPubKey.type === 'witness_mweb_pegin')!;
      assert.equal(await mweb.locator('dt:text-is("Peg-ins") + dd').innerText(), `1 · ${exact(pegged.value)} LTC`);
      assert.equal(await mweb.locator(`a[href^="/${SLUG}/tx/${chain.activation.pegInTxid}"]`).count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('raw hex on demand equals the node\'s; the address QR code is an inline SVG of its BIP21 URI', async () => {
    const page = await (await fetch(`${chain.serve.url}/${SLUG}/tx/${chain.paymentTxid}?hex=1`)).text();
    const hex = await chain.node.rpc.call<string>('getrawtransaction', [chain.paymentTxid]);
    assert.ok(page.includes(`<pre id="raw-hex">${hex}</pre>`));
    assert.ok(!(await (await fetch(`${chain.serve.url}/${SLUG}/tx/${chain.paymentTxid}`)).text()).includes(hex), 'not without asking');
    const address = await (await fetch(`${chain.serve.url}/${SLUG}/address/${chain.addresses.p2sh}`)).text();
    assert.match(address, new RegExp(`<svg class="qr" viewBox="0 0 (\\d+) \\1" role="img" aria-label="QR code of litecoin:${chain.addresses.p2sh}"[^>]*><path fill="currentColor" d="(M\\d+ \\d+h1v1h-1z)+"/></svg>`));
  });

  it('CSV export streams the whole history with a running balance', async () => {
    const response = await fetch(`${chain.serve.url}/${SLUG}/address/${chain.addresses.legacy}/history.csv`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="ltctest-.*-history\.csv"/);
    const lines = (await response.text()).trim().split('\n');
    assert.equal(lines[0], 'txid,block_height,time_utc,confirmations,received,sent,balance_change,balance_after');
    assert.equal(lines.length, 3, 'two payments');
    assert.match(lines[1]!, /^[0-9a-f]{64},\d+,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d+,1\.50000000,0\.00000000,1\.50000000,1\.50000000$/);
    assert.equal(lines[2], `${chain.unconfirmedTxid},,${lines[2]!.split(',')[2]},0,0.12345678,0.00000000,0.12345678,1.62345678`);
  });

  it('unknown paths get an HTML 404; /api/ keeps its JSON errors', async () => {
    const page = await fetch(`${chain.serve.url}/${SLUG}/nothing/here`);
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<form class="search"/);
    for (const path of [`/${SLUG}/tx/zz`, `/${SLUG}/block/99999`, `/${SLUG}/address/notanaddress`, '/btc', '/s/LTCTEST/zzzz']) {
      const missing = await fetch(`${chain.serve.url}${path}`);
      assert.equal(missing.status, 404, path);
      assert.match(missing.headers.get('content-type') ?? '', /^text\/html/, path);
    }
    const upper = await fetch(`${chain.serve.url}/${NET}/block/432`, { redirect: 'manual' });
    assert.equal(upper.status, 301);
    assert.equal(upper.headers.get('location'), `/${SLUG}/block/432`);
    const api = await fetch(`${chain.serve.url}/api/v2/nothing`);
    assert.equal(api.status, 404);
    assert.deepEqual(await api.json(), { status: 'fail', data: { path: 'no endpoint GET /api/v2/nothing' } });
  });
});
