/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * DOGETEST end to end against Dogecoin Core 1.14 (the stand-in): indexers on SQLite and PostgreSQL, v2 and v3
 * on each (both must answer alike), and realtime through pusher-js on each engine. The node is the oracle: get_info, blocks
 * with their AuxPoW bytes, broadcasts (accepted, dust, resent, resent after confirmation) and the v3 mempool
 * projection, whose relay fee only getnetworkinfo knows on 1.14.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getNetworkParams, type NetworkParams } from '../../src/chains/addressing.js';
import { toHex } from '../../src/chains/hash.js';
import { formatCoins, MemoryEventBus, parseCoins, silentLogger, type NetworkId } from '../../src/core/index.js';
import type { MempoolSourceEntry } from '../../src/core/sources/mempool-source.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { attachRealtime, type RealtimeHandle } from '../../src/realtime/attach-realtime.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../helpers/dogecoin/dogecoin-standin.js';
import { naiveProjection } from '../helpers/naive-projection.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { waitFor } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { appsOnBothEngines, getBoth, postBoth, sync, type EngineApp } from './v2-fixture.js';
import { call, callBoth, sameAccountIn, v3App } from './v3-fixture.js';

const params = getNetworkParams('DOGETEST', 'regtest');
const N = 'DOGETEST';
let node: DogecoinStandIn;
let engines: StoreEngines;
let apps: EngineApp[];
let v3: FastifyInstance[];
let key: string;

before(async () => {
  node = await startDogecoinStandIn({ zmqTopics: [] });
  await node.mine(80); // 20 mature coinbases of 500,000 DOGE: payments need not chain unconfirmed change
  engines = new StoreEngines();
  apps = await appsOnBothEngines(engines, node, {}, params);
  ({ key } = await sameAccountIn(apps.map((a) => a.indexed.test.store.accounts()), 'doge@x.io', 'doge', 1_000_000));
  v3 = await Promise.all(apps.map((a) => v3App(node, a.indexed.store, a.indexed.test.store.accounts(), {}, params)));
  await sync(apps);
});

after(async () => {
  for (const app of v3 ?? []) await app.close();
  for (const a of apps ?? []) await a.app.close();
  await node?.stop();
  await engines?.close();
});

const postTx = (hex: string) => postBoth(apps, `/api/v2/send_tx/${N}`, JSON.stringify({ tx_hex: hex }), 'application/json');

describe('v2 on Dogecoin Core 1.14', () => {
  it('get_info, get_tx and get_block agree with the node (block sizes include the AuxPoW)', async () => {
    const payee = node.wallet.newAddress();
    const txid = await node.send(payee, '12.5');
    await node.send(payee, '0.75');
    const [hash] = await node.mine(1);
    const unconfirmed = await node.send(payee, '3');
    await sync(apps);
    const info = (await getBoth(apps, `/api/v2/get_info/${N}`)).body.data;
    assert.equal(info.blocks, await node.rpc.call<number>('getblockcount'));
    assert.equal(info.unconfirmed_txs, 1);
    assert.equal(info.name, 'Dogecoin Regtest');
    assert.equal(info.mining_difficulty, Number(await node.rpc.call<number>('getdifficulty')).toFixed(8));
    assert.match(info.hashrate, /^\d+$/);
    const balance = (await getBoth(apps, `/api/v2/get_address_balance/${N}/${payee}`)).body.data;
    assert.deepEqual([balance.confirmed_balance, balance.unconfirmed_balance], ['13.25000000', '3.00000000']);
    const tx = (await getBoth(apps, `/api/v2/get_tx/${N}/${txid}`)).body.data;
    const nodeTx = await node.rpc.call<any>('getrawtransaction', [txid, true], { exactDecimals: true });
    assert.equal(tx.blockhash, hash);
    assert.deepEqual(tx.outputs.map((o: any) => o.value), nodeTx.vout.map((o: any) => formatCoins(parseCoins(String(o.value)))));
    assert.equal(tx.tx_hex, nodeTx.hex);
    const block = (await getBoth(apps, `/api/v2/get_block/${N}/${hash}`)).body.data;
    const nodeBlock = await node.rpc.call<any>('getblock', [hash, 1]);
    assert.equal(block.size, nodeBlock.size);
    assert.ok(nodeBlock.auxpow, 'a merge-mined block');
    assert.deepEqual(block.txs, nodeBlock.tx);
    assert.equal(block.merkleroot, nodeBlock.merkleroot);
    assert.equal(block.previous_blockhash, nodeBlock.previousblockhash);
    assert.ok((await getBoth(apps, `/api/v2/get_tx/${N}/${unconfirmed}`)).body.data.confirmations === 0);
  });

  it('a double spend confirmed by a block, then a reorg: confidence 0 with is_double_spend, the stale block is_orphan', async () => {
    const w = node.wallet;
    const coin = w.unspent().find((c) => c.confirmed)!;
    const victim = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 900_000_000n }] });
    await node.rpc.call('sendrawtransaction', [toHex(victim.raw)]);
    await sync(apps);
    assert.equal((await getBoth(apps, `/api/v2/get_confidence/${N}/${victim.txid}`)).body.data.is_double_spend, false);
    const stale = node.mineWith([w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 800_000_000n }] })]);
    await sync(apps);
    const ds = (await getBoth(apps, `/api/v2/get_confidence/${N}/${victim.txid}`)).body.data;
    assert.deepEqual([ds.confidence, ds.is_double_spend], [0, true]);
    await node.rpc.call('invalidateblock', [stale]);
    await node.mine(2);
    await sync(apps);
    const orphan = (await getBoth(apps, `/api/v2/get_block/${N}/${stale}`)).body.data;
    assert.deepEqual([orphan.is_orphan, orphan.confirmations, orphan.next_blockhash], [true, 0, null]);
  });

  it('send_tx: accepted, resent (same answer), dust refused with the node reason, resent after confirmation', async () => {
    const tx = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 250_000_000n }] });
    const [first, second] = await postTx(toHex(tx.raw));
    assert.deepEqual([first!.status, first!.body.data], [200, { network: N, txid: tx.txid }]);
    assert.deepEqual([second!.status, second!.body.data], [200, { network: N, txid: tx.txid }], 'the second engine resends it');
    const dust = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 99_999n }] });
    for (const r of await postTx(toHex(dust.raw))) {
      assert.equal(r.status, 404);
      assert.deepEqual(Object.keys(r.body.data).sort(), ['network', 'tx_hex']);
      assert.match(r.body.data.tx_hex, /64: dust/);
    }
    await node.mine(1);
    for (const r of await postTx(toHex(tx.raw))) assert.deepEqual([r.status, r.body.data.txid], [200, tx.txid], 'already in block chain (-27): delivered');
    await sync(apps);
  });
});

describe('v3 on Dogecoin Core 1.14', () => {
  it('broadcast_transaction relays a payment and reports dust as a rejection', async () => {
    const tx = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 100_000_000n }] });
    const ok = await call(v3[0]!, `/api/v3/broadcast_transaction/${N}`, key, 'POST', { tx_hex: toHex(tx.raw) });
    assert.deepEqual([ok.status, ok.body.data], [200, { network: N, hash: tx.txid }]);
    const dust = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 1_000n }] });
    const refused = await call(v3[1]!, `/api/v3/broadcast_transaction/${N}`, key, 'POST', { tx_hex: toHex(dust.raw) });
    assert.equal(refused.status, 404);
    assert.match(refused.body.data.error_message, /rejected by the network.*dust/);
  });

  it('network_info projects the 1.14 mempool (fees in DOGE, no vsize, relay fee from getnetworkinfo) like an independent computation', async () => {
    const w = node.wallet;
    for (let i = 0; i < 30; i++) {
      // 0.001 to 0.03 DOGE per kB, some paying from an unconfirmed parent (packages)
      const feePerKb = 100_000n + BigInt((i * 7_919) % 30) * 100_000n;
      await w.send(w.newAddress(), '5', { feePerKb });
    }
    await sync(apps);
    const verbose = await node.rpc.call<Record<string, any>>('getrawmempool', [true], { exactDecimals: true });
    const txids = Object.keys(verbose);
    const entries: MempoolSourceEntry[] = txids.map((txid) => ({
      txid, fee: parseCoins(String(verbose[txid].modifiedfee)), vsize: verbose[txid].size, weight: verbose[txid].size * 4, size: verbose[txid].size, depends: verbose[txid].depends,
    }));
    const relay = parseCoins(String((await node.rpc.call<any>('getnetworkinfo', [], { exactDecimals: true })).relayfee));
    const expected = naiveProjection(entries, params.maxBlockWeight, 6, Number(relay) / 1000).map((b) => ({
      block_num: b.blockNum, min_fee_rate: b.minFeeRate, max_fee_rate: b.maxFeeRate, median_fee_rate: b.medianFeeRate,
      min_fee_rate_possible: b.minFeeRatePossible, weight: b.weight, size: b.size, num_txs: b.numTxs,
    }));
    let answer: any;
    await waitFor(async () => {
      answer = (await callBoth(v3, `/api/v3/network_info/${N}`, key)).body.data;
      return answer.mempool.mempool_txs === txids.length;
    }, 15_000, 'the projection to catch up', 100);
    assert.deepEqual(answer.mempool.blocks, expected);
    assert.equal(answer.mempool.blocks[0].min_fee_rate_possible, 100, '0.001 DOGE/kB');
    assert.equal(answer.best_block_hash, await node.rpc.call<string>('getbestblockhash'));
    await node.mine(1);
    await sync(apps);
  });
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`realtime on Dogecoin Core 1.14 (pusher-js, ${engine})`, () => {
    const bus = new MemoryEventBus();
    let indexer: NetworkIndexer;
    let http: Server;
    let realtime: RealtimeHandle;
    let pusher: Pusher;

    const syncRealtime = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) if (!(await indexer.syncOnce()).incomplete) return;
    };

    before(async () => {
      const store = (await engines.create(engine)).store.network(N);
      indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store, bus, logger: silentLogger });
      await syncRealtime();
      http = createServer((_req, res) => res.writeHead(404).end());
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      realtime = attachRealtime(http, { appKey: 'k', bus, networks: new Map<NetworkId, NetworkParams>([[N, params]]), logger: silentLogger });
      pusher = pusherClient((http.address() as AddressInfo).port, 'k');
      await connected(pusher);
    });
    after(async () => {
      pusher?.disconnect();
      await realtime?.close();
      await new Promise((resolve) => http?.close(resolve));
    });

    it('block_update carries the merge-mined block; tx_update and balance_update the payment', async () => {
      const channel = await subscribed(pusher, 'blockchain_update_dogetest');
      const blocks = new Recorder<any>(channel, 'block_update');
      const txs = new Recorder<any>(channel, 'tx_update');
      const payee = node.wallet.newAddress();
      const balances = new Recorder<any>(await subscribed(pusher, `address_dogetest_${payee}`), 'balance_update');
      const txid = await node.send(payee, '42');
      await syncRealtime();
      const update = await txs.next((t) => t.value.txid === txid);
      assert.equal(update.value.tx_hex, await node.rpc.call<string>('getrawtransaction', [txid]));
      const balance = await balances.next((b) => b.value.tx.txid === txid);
      assert.deepEqual([balance.value.address, balance.value.value_received], [payee, '42.00000000']);
      const [hash] = await node.mine(1);
      await syncRealtime();
      const block = await blocks.next((b) => b.value.blockhash === hash);
      const nodeBlock = await node.rpc.call<any>('getblock', [hash, true]);
      assert.deepEqual([block.value.block_no, block.value.size, block.value.total_txs], [nodeBlock.height, nodeBlock.size, nodeBlock.tx.length]);
      assert.equal(block.value.merkleroot, nodeBlock.merkleroot);
    });
  });
}
