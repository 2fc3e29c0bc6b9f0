/**
 * What clients see while a network is in its initial sync, against `outpoint serve` as operators run it (both
 * engines), a litecoind whose getblock answers a proxy holds (the sync stops at a chosen height), and a bitcoind
 * that syncs freely: LTCTEST chain endpoints answer 503 in the spec's shapes with Retry-After, get_info and
 * network_info report `syncing`, send_tx / broadcast_transaction / prices / validity / account_info / BTCTEST keep
 * working, pusher-js hears nothing of LTCTEST; once get_info reports the tip, the same endpoints answer and events
 * flow.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { indexSyncingMessage } from '../../src/core/domain/errors.js';
import { generateApiKey } from '../../src/services/accounts/api-keys.js';
import { FixtureExchange, startFakeExchange, type FakeExchange } from '../helpers/fake-exchange.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startBitcoind, startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { RpcHoldProxy } from '../helpers/rpc-hold-proxy.js';
import { httpJson, startServe, type HttpReply, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines } from '../helpers/store-engines.js';

const KEY = 'initial-sync-key';
let ltc: RegtestNode;
let btc: RegtestNode;
let exchange: FakeExchange;
const engines = new StoreEngines();

before(async () => {
  [ltc, btc] = await Promise.all([startLitecoind({ funded: true }), startBitcoind({ funded: true })]);
  exchange = await startFakeExchange(new FixtureExchange('kraken').reply);
});

after(async () => {
  await exchange?.close();
  await ltc?.stop();
  await btc?.stop();
  await engines.close();
});

type Event = { type: string; value: Record<string, unknown> };

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`initial sync as clients see it (${engine})`, () => {
    let serve: ServeProcess;
    let proxy: RpcHoldProxy;
    let apiKey: string;
    let pusher: Pusher;
    let funded: string;
    let block1: { hash: string; coinbase: string };
    /** Carried from one step to the next. */
    const state = { sentTxid: '', recipient: '', ltcBlocks: null as Recorder<Event> | null, ltcTxs: null as Recorder<Event> | null, balances: null as Recorder<Event> | null };
    const get = (path: string): Promise<HttpReply> => httpJson(serve.port, path, { headers: { 'API-KEY': apiKey } });
    const ltcInfo = async () => (await get('/api/v2/get_info/LTCTEST')).body.data;

    before(async () => {
      funded = await ltc.newAddress('bech32');
      await ltc.send(funded, '1.5');
      await ltc.mine(40);
      const hash = await ltc.rpc.call<string>('getblockhash', [1]);
      block1 = { hash, coinbase: (await ltc.rpc.call<{ tx: string[] }>('getblock', [hash])).tx[0]! };
      const test = await engines.create(engine);
      const accounts = test.store.accounts();
      await accounts.setPlan('e2e', 1_000_000, 1);
      const account = await accounts.createAccount({ email: 'ops@example.com', plan: 'e2e', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true });
      const key = generateApiKey();
      await accounts.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
      apiKey = key.key;
      // One block per batch and per getblock: 20 blocks load, then the sync waits on the proxy.
      proxy = await RpcHoldProxy.start(ltc.rpcUrl, 20);
      const config = join(ltc.datadir, `outpoint-${engine}.toml`);
      writeFileSync(config, `[store]\nurl = "${test.url}"\n[realtime]\napp_key = "${KEY}"\n[http]\nrate_limit_per_second = 0\n` +
        `[market]\nsources = ["kraken"]\ninterval_ms = 1000\nkraken_url = "${exchange.url}"\n` +
        `[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${proxy.url}"\npoll_ms = 100\nsync_batch_txs = 1\nsync_requests = 1\n` +
        `[networks.BTCTEST]\nchain = "regtest"\nrpc_url = "${btc.rpcUrl}"\npoll_ms = 100\n`);
      serve = await startServe(config);
      pusher = pusherClient(serve.port, KEY);
      await connected(pusher);
    });

    after(async () => {
      pusher?.disconnect();
      await serve?.stop();
      await proxy?.close();
    });

    it('while LTCTEST loads: 503 "index is syncing" with Retry-After on its chain endpoints, the rest answers', async () => {
      await waitFor(async () => (await ltcInfo()).syncing?.height === 19, 30_000, 'LTCTEST loaded up to the proxy');
      const tip = await ltc.rpc.call<number>('getblockcount');
      const info = await ltcInfo();
      assert.equal(info.blocks, 19, 'the index height');
      assert.deepEqual({ ...info.syncing, eta_seconds: null, updated_at: null }, { phase: 'loading', height: 19, target_height: tip, eta_seconds: null, updated_at: null });
      assert.ok(Number.isInteger(info.syncing.eta_seconds) && info.syncing.eta_seconds >= 0);
      assert.deepEqual([info.hashrate, info.unconfirmed_txs, info.mining_difficulty], ['0', 0, '0.00000000']);
      const expected = (s: { height: number; target_height: number; eta_seconds: number }) =>
        indexSyncingMessage({ height: s.height, targetHeight: s.target_height, etaSeconds: s.eta_seconds });

      const v2 = (path: string) => `/api/v2/${path.replace('{N}', 'LTCTEST').replace('{A}', funded).replace('{T}', block1.coinbase).replace('{B}', block1.hash)}`;
      const shapeA: Record<string, string[]> = {
        'get_address_balance/{N}/{A}': ['network', 'address', 'confirmations'], 'get_address_received/{N}/{A}': ['network', 'address'],
        'get_address_spent/{N}/{A}': ['network', 'address'], 'get_tx_unspent/{N}/{A}': ['network', 'address', 'after_tx'],
        'get_tx_received/{N}/{A}/{T}': ['network', 'address', 'after_tx'], 'get_tx_spent/{N}/{A}': ['network', 'address', 'after_tx'],
        'get_confidence/{N}/{T}': ['network', 'txid'], 'get_tx_inputs/{N}/{T}': ['network', 'txid', 'input_no'],
        'get_tx_outputs/{N}/{T}/0': ['network', 'txid', 'output_no'], 'get_tx/{N}/{T}': ['network', 'txid'], 'is_tx_confirmed/{N}/{T}': ['network', 'txid'],
        'is_tx_spent/{N}/{T}/0': ['network', 'txid', 'output_no'], 'get_blockhash/{N}/1': ['network', 'block_no'], 'get_block/{N}/{B}': ['network', 'blockid'],
      };
      const v3Paths = ['transactions/{N}/{A}/1', 'transaction_counts/{N}/{A}', 'unspent_outputs/{N}/{A}/1', 'balance/{N}/{A}', 'address_summary/{N}/{A}',
        `transaction/{N}/{T}`, 'latest_blocks_summary/{N}', 'block/{N}/1', 'best_block_hash/{N}'];
      const checkRetryAfter = (r: HttpReply, path: string): void => {
        const seconds = Number(r.headers.get('retry-after'));
        assert.ok(Number.isInteger(seconds) && seconds >= 5 && seconds <= 60, `${path}: Retry-After ${r.headers.get('retry-after')}`);
      };
      for (const [path, keys] of Object.entries(shapeA)) {
        const r = await get(v2(path));
        const after = (await ltcInfo()).syncing;
        assert.equal(r.status, 503, path);
        checkRetryAfter(r, path);
        assert.equal(r.body.status, 'fail');
        assert.deepEqual(Object.keys(r.body.data).sort(), [...keys].sort(), path);
        assert.ok([expected(info.syncing), expected(after)].includes(r.body.data.network), `${path}: ${r.body.data.network}`);
      }
      for (const path of ['address/{N}/{A}', 'tx/{N}/{T}', 'block/{N}/{B}']) {
        const r = await get(v2(path));
        assert.equal(r.status, 503, path);
        checkRetryAfter(r, path);
        assert.deepEqual({ ...r.body, message: '' }, { status: 'fail', code: 503, message: '' }, path);
        assert.match(r.body.message, /^index is syncing: height 19 of \d+, about \d+ min left$/);
      }
      for (const path of v3Paths) {
        const r = await get(v2(path).replace('/api/v2/', '/api/v3/'));
        assert.equal(r.status, 503, path);
        checkRetryAfter(r, path);
        assert.deepEqual(Object.keys(r.body), ['status', 'data']);
        assert.match(r.body.data.error_message, /^index is syncing: height 19 of \d+, about \d+ min left$/, path);
      }
      const network = (await get('/api/v3/network_info/LTCTEST')).body.data;
      assert.equal(network.block_count, 19);
      assert.equal(network.syncing.phase, 'loading');
      assert.deepEqual([network.best_block_hash, network.mempool.mempool_txs], ['', 0]);

      // What needs no index keeps answering.
      assert.equal((await get(v2('is_address_valid/{N}/{A}'))).body.data.is_valid, true);
      assert.equal((await get(`/api/v3/is_valid_address/LTCTEST/${funded}`)).body.data.is_valid, true);
      assert.equal((await get(v2('short/{N}/{A}'))).status, 200);
      assert.equal((await get('/api/v3/account_info')).body.data.plan.name, 'e2e');
      assert.equal((await get('/api/v3/price/LTCTEST')).status, 200);
      await waitFor(async () => (await get('/api/v2/get_price/BTC/USD')).body.data.prices.length > 0, 15_000, 'a BTC/USD price');
      const recipient = await ltc.newAddress('bech32');
      const signedPayment = async (to: string): Promise<string> => {
        const raw = await ltc.wallet.call<string>('createrawtransaction', [[], { [to]: '0.25' }]);
        const fundedRaw = await ltc.wallet.call<{ hex: string }>('fundrawtransaction', [raw]);
        const signed = await ltc.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [fundedRaw.hex]);
        // Locked so the second payment does not pick the same coins.
        const decoded = await ltc.rpc.call<{ vin: { txid: string; vout: number }[] }>('decoderawtransaction', [signed.hex]);
        await ltc.wallet.call('lockunspent', [false, decoded.vin.map(({ txid, vout }) => ({ txid, vout }))]);
        return signed.hex;
      };
      const post = (path: string, hex: string) =>
        httpJson(serve.port, path, { method: 'POST', headers: { 'content-type': 'application/json', 'API-KEY': apiKey }, body: JSON.stringify({ tx_hex: hex }) });
      const sent = await post('/api/v2/send_tx/LTCTEST', await signedPayment(recipient));
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const broadcast = await post('/api/v3/broadcast_transaction/LTCTEST', await signedPayment(await ltc.newAddress('bech32')));
      assert.equal(broadcast.status, 200, JSON.stringify(broadcast.body));
      const mempool = await ltc.rpc.call<string[]>('getrawmempool');
      assert.ok(mempool.includes(sent.body.data.txid) && mempool.includes(broadcast.body.data.hash));
      state.sentTxid = sent.body.data.txid;
      state.recipient = recipient;

      // Another network is unaffected: its own initial sync ended, it answers and publishes.
      await waitFor(async () => (await get('/api/v2/get_info/BTCTEST')).body.data.syncing === false, 30_000, 'BTCTEST caught up');
      const btcAddress = await btc.newAddress('bech32');
      assert.equal((await get(`/api/v2/get_address_balance/BTCTEST/${btcAddress}`)).status, 200);
      assert.equal((await get(`/api/v3/balance/BTCTEST/${btcAddress}`)).status, 200);
      const btcBlocks = new Recorder<Event>(await subscribed(pusher, 'blockchain_update_btctest'), 'block_update');
      const [btcHash] = await btc.mine(1);
      await btcBlocks.next((e) => e.value.blockhash === btcHash, 15_000);
    });


    it('realtime: LTCTEST channels stay quiet while blocks load', async () => {
      const channel = await subscribed(pusher, 'blockchain_update_ltctest');
      state.ltcBlocks = new Recorder<Event>(channel, 'block_update');
      state.ltcTxs = new Recorder<Event>(channel, 'tx_update');
      state.balances = new Recorder<Event>(await subscribed(pusher, `address_ltctest_${state.recipient}`), 'balance_update');
      proxy.allow(30);
      await waitFor(async () => (await ltcInfo()).syncing?.height === 49, 30_000, '30 more blocks loaded');
      await delay(1000);
      assert.equal((await ltcInfo()).syncing.phase, 'loading');
      assert.deepEqual([state.ltcBlocks.events, state.ltcTxs.events, state.balances.events], [[], [], []]);
    });

    it('at the moment get_info reports the tip, the chain endpoints answer and events flow', async () => {
      const tip = await ltc.rpc.call<number>('getblockcount');
      proxy.release();
      let info: { blocks: number; syncing: unknown } | undefined;
      await waitFor(async () => (info = await ltcInfo()).syncing === false, 60_000, 'LTCTEST caught up', 5);
      const balance = await get(`/api/v2/get_address_balance/LTCTEST/${funded}`);
      assert.equal(info!.blocks, tip);
      assert.equal(balance.status, 200, JSON.stringify(balance.body));
      assert.equal(balance.body.data.confirmed_balance, '1.50000000');
      for (const path of [`/api/v2/address/LTCTEST/${funded}`, `/api/v2/block/LTCTEST/${block1.hash}`, `/api/v2/get_tx/LTCTEST/${block1.coinbase}`,
        `/api/v3/balance/LTCTEST/${funded}`, '/api/v3/latest_blocks_summary/LTCTEST']) {
        const r = await get(path);
        assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
        assert.equal(r.headers.get('retry-after'), null);
      }
      const network = (await get('/api/v3/network_info/LTCTEST')).body.data;
      assert.deepEqual([network.syncing, network.block_count], [false, tip]);

      // The tx sent during the sync is announced once the mempool is read; new blocks are announced; loaded ones never were.
      await state.ltcTxs!.next((e) => e.value.txid === state.sentTxid, 15_000);
      await state.balances!.next((e) => (e.value.tx as { txid: string }).txid === state.sentTxid, 15_000);
      const [hash] = await ltc.mine(1);
      await state.ltcBlocks!.next((e) => e.value.blockhash === hash, 15_000);
      assert.deepEqual(state.ltcBlocks!.events.map((e) => e.value.block_no), [tip + 1]);
    });
  });
}
