/**
 * The scaled-out deployment as operators run it: PostgreSQL, Redis, one `outpoint serve` that indexes
 * (and polls an exchange) and one `outpoint serve --api-only` replica. A pusher-js client on the replica
 * receives the events the other process produces (blocks, txs, prices), and both answer the v2 API from
 * the shared store. The replica runs `[http] processes = 2`: its pusher-js client is on one of its worker processes.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FixtureExchange, startFakeExchange, type FakeExchange } from '../helpers/fake-exchange.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startServe } from '../helpers/serve-process.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';

const KEY = 'scaleout-key';
let node: RegtestNode;
let engines: StoreEngines;
let redis: RedisServer;
const processes: { child: ChildProcess; port: number; log: string[] }[] = [];
let pusher: Pusher | null = null;
const kraken = new FixtureExchange('kraken');
let exchange: FakeExchange;

function setKrakenBtcUsd(price: string): void {
  const data = kraken.data as { result: Record<string, { c: string[] }> };
  data.result['XXBTZUSD']!.c[0] = price;
}

async function serve(config: string, apiOnly: boolean): Promise<void> {
  // The replica serves its port from two worker processes ([http] processes): Redis's events and counters reach them
  // through the replica's serving process.
  const started = await startServe(config, { apiOnly, ...(apiOnly ? { env: { OUTPOINT_HTTP_PROCESSES: '2' } } : {}) });
  processes.push({ child: started.child, port: started.port, log: started.log });
}

async function getJson(port: number, path: string): Promise<{ status: string; data: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return (await response.json()) as { status: string; data: Record<string, unknown> };
}

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  redis = await startRedis();
  setKrakenBtcUsd('67012.30000');
  exchange = await startFakeExchange(kraken.reply);
  const store = await engines.create('postgres');
  const config = join(node.datadir, 'outpoint.toml');
  writeFileSync(
    config,
    `[store]
url = "${store.url}"
[redis]
url = "${redis.url}"
[realtime]
app_key = "${KEY}"
[http]
rate_limit_per_second = 0
[market]
sources = ["kraken"]
interval_ms = 1000
max_age_s = 60
kraken_url = "${exchange.url}"
[networks.LTCTEST]
chain = "regtest"
rpc_url = "${node.rpcUrl}"
poll_ms = 100
`,
  );
  await serve(config, false);
  await serve(config, true);
});

after(async () => {
  pusher?.disconnect();
  for (const { child } of processes) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await exchange?.close();
  await redis?.stop();
  await node?.stop();
  await engines?.close();
});

describe('outpoint serve scaled out over PostgreSQL and Redis', () => {
  it('the replica serves the indexer process\'s data and its realtime events', async () => {
    const [indexer, replica] = processes;
    const best = await node.rpc.call<string>('getbestblockhash');
    await waitFor(async () => (await getJson(replica!.port, '/api/v2/get_info/LTCTEST')).data['blocks'] === 101, 30_000, 'replica sees the indexed chain');

    pusher = pusherClient(replica!.port, KEY);
    await connected(pusher);
    const channel = await subscribed(pusher, 'blockchain_update_ltctest');
    const blocks = new Recorder<{ type: string; value: { blockhash: string; block_no: number } }>(channel, 'block_update');
    const txs = new Recorder<{ type: string; value: { txid: string } }>(channel, 'tx_update');

    const txid = await node.send(await node.newAddress('bech32'), '0.1');
    const txEvent = await txs.next((e) => e.value.txid === txid, 15_000);
    assert.equal(txEvent.type, 'tx');
    const [hash] = await node.mine(1);
    const blockEvent = await blocks.next((e) => e.value.blockhash === hash, 15_000);
    assert.equal(blockEvent.type, 'block');
    assert.equal(blockEvent.value.block_no, 102);

    for (const port of [indexer!.port, replica!.port]) {
      const block = await getJson(port, `/api/v2/get_block/LTCTEST/${hash}`);
      assert.equal(block.status, 'success');
      assert.equal(block.data['block_no'], 102);
      const tx = await getJson(port, `/api/v2/get_tx/LTCTEST/${txid}`);
      assert.equal(tx.data['blockhash'], hash);
    }
    assert.notEqual(best, hash);
    assert.ok(!replica!.log.join('').includes('indexing'), 'the replica does not index');
  });

  it('prices polled by the indexing process reach the replica\'s API and its ticker subscribers', async () => {
    const [, replica] = processes;
    type Prices = { data: { prices: { price: string; price_base: string; exchange: string }[] } };
    await waitFor(async () => ((await getJson(replica!.port, '/api/v2/get_price/BTC/USD')) as unknown as Prices).data.prices.length > 0, 15_000, 'a BTC/USD price');
    const prices = (await getJson(replica!.port, '/api/v2/get_price/BTC/USD')) as unknown as Prices;
    assert.deepEqual(prices.data.prices.map((p) => [p.exchange, p.price, p.price_base]), [['kraken', '67012.30000000', 'USD']]);
    const ticker = new Recorder<{ type: string; value: { price: string; exchange: string; symbol: string; price_base: string } }>(
      await subscribed(pusher!, 'ticker_btc_usd'),
      'price_update',
    );
    setKrakenBtcUsd('68000.50000');
    const update = await ticker.next((e) => e.value.price === '68000.50000000', 15_000);
    assert.deepEqual([update.type, update.value.exchange, update.value.symbol, update.value.price_base], ['price', 'kraken', 'BTC', 'USD']);
  });

  it('SIGHUP (systemctl reload) without TLS stops neither process and says there is nothing to reload', async () => {
    for (const served of processes) {
      served.child.kill('SIGHUP');
      await waitFor(() => served.log.join('').includes('SIGHUP: nothing to reload'), 10_000, `SIGHUP logged: ${served.log.join('').slice(-500)}`);
      assert.equal(served.child.exitCode, null);
      assert.equal((await getJson(served.port, '/api/v2/get_info/LTCTEST')).status, 'success');
    }
  });
});
