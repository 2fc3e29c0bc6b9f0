/**
 * Issue 46, point 3, on `outpoint serve` (SQLite, litecoind -regtest): the catch-up feed's pages are bounded in bytes
 * as sent (`[realtime] feed_page_kib`), streamed, and their bytes counted per client network
 * (`[realtime] feed_mib_per_minute`). An address is paid by 12 txs of 802 outputs each, so each of its
 * `balance_update` events carries some 50 KB of inputs and outputs: a page of them used to be all of them at once.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams, scriptToAddress } from '../../src/chains/addressing.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

const PAGE_KIB = 256;
const TXS = 12;
let node: RegtestNode;
let serve: ServeProcess;
let address: string;
const txids: string[] = [];

interface FeedPage {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page is checked field by field
  readonly body: any;
}

async function feedPage(after: number, client: string): Promise<FeedPage> {
  const res = await fetch(`${serve.url}/api/v2/events/LTCTEST?channel=address_ltctest_${address}&after=${after}`, { headers: { 'x-forwarded-for': client } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

before(async () => {
  node = await startLitecoind({ funded: true });
  serve = await startServeWithBody(`[realtime]
feed_page_kib = ${PAGE_KIB}
feed_mib_per_minute = 2
[networks.LTCTEST]
chain = "regtest"
rpc_url = "${node.rpcUrl}"
poll_ms = 100`, { http: { trust_proxy: '["127.0.0.1"]' } });
  // Past the initial sync, which indexes without events: the payments below go out as events and into the log.
  await waitFor(async () => (await fetch(`${serve.url}/ready/LTCTEST`)).status === 200, 60_000, 'the index following the node');
  // Another wallet's: the funded wallet never spends from it, so its only events are these payments.
  address = await (await node.createWallet('payee')).call<string>('getnewaddress', ['', 'bech32']);
  const params = getNetworkParams('LTCTEST', 'regtest');
  for (let t = 0; t < TXS; t++) {
    // 801 addresses nobody holds (random witness programs) and ours: every one of its events carries all 802 outputs.
    const outputs: Record<string, string> = { [address]: '0.001' };
    for (let i = 0; i < 801; i++) outputs[scriptToAddress(params, Buffer.concat([Buffer.from([0, 20]), randomBytes(20)]))!] = '0.0001';
    txids.push(await node.wallet.call<string>('sendmany', ['', outputs]));
    // Each spends the last one's change: a block now and then keeps the chain under the mempool's ancestor size limit.
    if (t % 3 === 2) await node.mine(1);
  }
  await node.mine(1);
  await waitFor(async () => {
    const balance = await httpJson(serve.port, `/api/v2/get_address_balance/LTCTEST/${address}`);
    return balance.status === 200 && balance.body.data.confirmed_balance === '0.01200000';
  }, 60_000, 'the payments indexed and confirmed');
});

after(async () => {
  await serve?.stop();
  await node?.stop();
});

describe('the catch-up feed under hostile use (issue 46)', () => {
  it(`pages end at ${PAGE_KIB} KiB of events as sent, are streamed, and together give every event once, in order`, async () => {
    let client = 0;
    /** Every page from the start, as a client catching up reads them. */
    const walk = async (): Promise<{ pages: number; seen: number[]; paid: Set<string> }> => {
      const seen: number[] = [];
      const paid = new Set<string>();
      let after = 0;
      let pages = 0;
      for (;;) {
        const page = await feedPage(after, `10.0.1.${(++client % 250) + 1}`);
        pages++;
        assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 300));
        assert.equal(page.headers.get('content-length'), null, 'streamed: no length known up front');
        assert.ok(page.bytes <= PAGE_KIB * 1024, `page ${pages}: ${page.bytes} bytes`);
        const data = page.body.data;
        for (const e of data.events) {
          seen.push(e.event_id);
          assert.equal(e.data.value.address, address);
          if (e.data.value.tx.outputs.length >= 802) paid.add(e.data.value.tx.txid);
        }
        assert.equal(data.cursor, data.events.length > 0 ? data.events[data.events.length - 1].event_id : after);
        if (!data.has_more) return { pages, seen, paid };
        assert.ok(data.events.length > 0, 'a page that has more moves the cursor');
        after = data.cursor;
      }
    };
    // The last block's events reach the log just after its balances reach the index.
    let result = await walk();
    await waitFor(async () => (result = await walk()).paid.size === TXS, 30_000, 'every payment in the log');
    const { pages, seen, paid } = result;
    assert.ok(pages >= 3, `${pages} pages: the events do not fit in one`);
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'in order');
    assert.equal(new Set(seen).size, seen.length, 'each once');
    assert.deepEqual([...paid].sort(), [...txids].sort(), 'every payment, with all its outputs');
  });

  it('a client network that was sent its MiB of the minute gets 429 with Retry-After; another network is served', async () => {
    const statuses: number[] = [];
    let refused: FeedPage | null = null;
    for (let i = 0; i < 20 && !refused; i++) {
      const page = await feedPage(0, '10.0.2.1');
      statuses.push(page.status);
      if (page.status === 429) refused = page;
    }
    assert.ok(refused, `refused within 20 pages of up to ${PAGE_KIB} KiB: ${statuses.join(' ')}`);
    assert.ok(statuses.filter((s) => s === 200).length >= 7, `about 2 MiB served first: ${statuses.join(' ')}`);
    assert.match(JSON.stringify(refused.body), /2 MiB of catch-up pages of the minute/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await feedPage(0, '10.0.2.2')).status, 200);
  });

  it('a JSONP page is the same page, bounded alike', async () => {
    const res = await fetch(`${serve.url}/api/v2/events/LTCTEST?channel=address_ltctest_${address}&after=0&callback=cb`, { headers: { 'x-forwarded-for': '10.0.3.1' } });
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.match(text, /^\/\*\*\/cb\(\{"status":"success"/);
    assert.ok(Buffer.byteLength(text) <= PAGE_KIB * 1024 + 20);
    const body = JSON.parse(text.slice('/**/cb('.length, -2));
    assert.equal(body.data.has_more, true);
  });
});
