/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * v2 block, price and info endpoints against a live index (litecoind regtest, SQLite and PostgreSQL).
 * The chain and the apps: v2-chain.ts. The node is the oracle; the two engines must answer identically.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { RegtestNode } from '../helpers/regtest-node.js';
import { N, startV2Chain, V2, type V2Chain } from './v2-chain.js';
import { getBoth, sync, type EngineApp } from './v2-fixture.js';

let chain: V2Chain;
let node: RegtestNode;
let apps: EngineApp[];
let b1Hash: string;

before(async () => {
  chain = await startV2Chain();
  ({ node, apps, b1Hash } = chain);
});

after(async () => {
  await chain?.stop();
});

describe('v2 block, price and info endpoints', () => {
  it('get_blockhash and get_block (by hash and height) match the node; next_blockhash null at the tip', async () => {
    const height = await node.rpc.call<number>('getblockcount');
    const tipHash = await node.rpc.call<string>('getbestblockhash');
    const h = await getBoth(apps, `${V2}/get_blockhash/${N}/${height}`);
    assert.deepEqual(h.body.data, { network: N, blockhash: tipHash, block_no: height });
    const expected = await node.rpc.call<any>('getblock', [b1Hash]);
    for (const id of [b1Hash, String(expected.height)]) {
      const r = await getBoth(apps, `${V2}/get_block/${N}/${id}`);
      assert.deepEqual(r.body.data, {
        network: N, blockhash: b1Hash, block_no: expected.height, mining_difficulty: Number(expected.difficulty).toFixed(8), time: expected.time,
        confirmations: expected.confirmations, is_orphan: false, txs: expected.tx, merkleroot: expected.merkleroot,
        previous_blockhash: expected.previousblockhash, next_blockhash: expected.nextblockhash, size: expected.size,
      });
    }
    const tip = await getBoth(apps, `${V2}/get_block/${N}/${tipHash}`);
    assert.equal(tip.body.data.next_blockhash, null);
    assert.equal(tip.body.data.confirmations, 1);
  });

  it('block display: sent value, fees and every tx', async () => {
    const r = await getBoth(apps, `${V2}/block/${N}/${b1Hash}`);
    assert.equal(r.body.code, 200);
    assert.equal(r.body.data.txs.length, 61);
    assert.equal(r.body.data.txs[0].fee, null, 'coinbase first');
    const fees = r.body.data.txs.slice(1).reduce((s: bigint, t: any) => s + parseCoins(t.fee), 0n);
    assert.equal(r.body.data.fee, formatCoins(fees));
  });

  it('an orphaned block stays queryable with is_orphan', async () => {
    const stale = await node.rpc.call<string>('getbestblockhash');
    await node.rpc.call('invalidateblock', [stale]);
    await node.mine(2);
    await sync(apps);
    const r = await getBoth(apps, `${V2}/get_block/${N}/${stale}`);
    assert.equal(r.body.data.is_orphan, true);
    assert.equal(r.body.data.confirmations, 0);
    assert.equal(r.body.data.next_blockhash, null);
  });

  it('get_price: DOGE by default, empty list without market data, never 404', async () => {
    for (const [url, coin] of [['/get_price', 'DOGE'], ['/get_price/BTC', 'BTC'], ['/get_price/BTC/USD', 'BTC'], ['/get_price/LTCTEST', 'LTCTEST'], ['/get_price/%24%24', 'DOGE']]) {
      const r = await getBoth(apps, `${V2}${url}`);
      assert.equal(r.status, 200, url);
      assert.deepEqual(r.body, { status: 'success', data: { network: coin, prices: [] } }, url);
    }
  });

  it('get_info: live figures for the served network, zeros for others, DOGE by default', async () => {
    const r = await getBoth(apps, `${V2}/get_info/${N}`);
    const d = r.body.data;
    assert.equal(d.blocks, await node.rpc.call<number>('getblockcount'));
    assert.equal(d.unconfirmed_txs, (await node.rpc.call<string[]>('getrawmempool')).length);
    assert.equal(d.name, 'Litecoin Regtest');
    assert.ok(BigInt(d.hashrate) > 0n, d.hashrate);
    assert.equal(d.mining_difficulty, Number(await node.rpc.call<number>('getdifficulty')).toFixed(8));
    assert.equal(d.syncing, false, 'an index that reached the node has no sync status to report');
    const doge = await getBoth(apps, `${V2}/get_info`);
    assert.deepEqual(doge.body.data, {
      name: 'Dogecoin', acronym: 'DOGE', network: 'DOGE', symbol_htmlcode: '&#272;', url: 'https://dogecoin.com/', mining_difficulty: '0.00000000',
      unconfirmed_txs: 0, blocks: 0, price: '0.00000000', price_base: 'USD', price_update_time: 0, hashrate: '0', syncing: false,
    });
    assert.equal((await getBoth(apps, `${V2}/get_info/BTC`)).body.data.name, 'Bitcoin');
  });
});
