/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * v3 network_info's mempool projection against litecoind regtest: a mempool of a few hundred wallet txs at varied
 * fee rates (packages included), indexed on SQLite and PostgreSQL, projected like an independent computation
 * (test/helpers/naive-projection.ts). Its own node: the 240 sends would change what v3-api.test.ts reads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { MempoolSourceEntry } from '../../src/core/sources/mempool-source.js';
import { syncAll, type IndexedEngine } from '../helpers/indexer-harness.js';
import { naiveProjection } from '../helpers/naive-projection.js';
import { waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { callBoth, params, startV3Chain, type V3Chain } from './v3-fixture.js';

const N = 'LTCTEST';
const V3 = '/api/v3';
let chain: V3Chain;
let node: RegtestNode;
let indexed: IndexedEngine[];
let apps: FastifyInstance[];
let key: string;

const get = (url: string) => callBoth(apps, url, key);
const sync = () => syncAll(indexed);

before(async () => {
  // Its 60 confirmed coins let the wallet's 240 sends form packages without passing the mempool's chain limits.
  chain = await startV3Chain();
  ({ node, indexed, apps, key } = chain);
  await sync();
});

after(async () => {
  await chain?.stop();
});

describe('v3 network_info and the mempool projection', () => {
  it('projects a mempool of a few hundred txs at varied fee rates like an independent computation', async () => {
    const targets = Array.from({ length: 8 }, () => node.newAddress('bech32'));
    const addresses = await Promise.all(targets);
    const calls = [];
    for (let i = 0; i < 240; i++) {
      // 10 to 70 litoshi per vbyte (settxfee is per kvB; the wallet's floor is 10), varied; the wallet chains change, so packages form.
      calls.push({ method: 'settxfee', params: [formatCoins(BigInt(10_000 + ((i * 7_919) % 60_000)))] });
      calls.push({ method: 'sendtoaddress', params: [addresses[i % 8]!, '0.01'] });
    }
    // In chunks: one batch of 480 wallet calls can outlast the RPC timeout (60 s) on a loaded machine.
    for (let i = 0; i < calls.length; i += 40) for (const r of await node.wallet.batch(calls.slice(i, i + 40))) if (r instanceof Error) throw r;
    await sync();
    const verbose = await node.rpc.call<Record<string, any>>('getrawmempool', [true], { exactDecimals: true });
    const txids = Object.keys(verbose);
    assert.ok(txids.length >= 240);
    const decoded = await node.rpc.batch<any>(txids.map((t) => ({ method: 'getrawtransaction', params: [t, true] })));
    const entries: MempoolSourceEntry[] = txids.map((txid, i) => ({
      txid,
      fee: parseCoins(String(verbose[txid].fees.modified)),
      vsize: verbose[txid].vsize,
      weight: verbose[txid].weight,
      size: (decoded[i] as any).size,
      depends: verbose[txid].depends,
    }));
    assert.ok(entries.some((e) => e.depends.length > 0), 'some packages');
    const info = await node.rpc.call<any>('getmempoolinfo', [], { exactDecimals: true });
    const minRate = Number(parseCoins(String(info.mempoolminfee)) > parseCoins(String(info.minrelaytxfee)) ? parseCoins(String(info.mempoolminfee)) : parseCoins(String(info.minrelaytxfee))) / 1000;
    const expected = naiveProjection(entries, params.maxBlockWeight, 6, minRate).map(({ txids: _t, ...b }) => ({
      block_num: b.blockNum, min_fee_rate: b.minFeeRate, max_fee_rate: b.maxFeeRate, median_fee_rate: b.medianFeeRate,
      min_fee_rate_possible: b.minFeeRatePossible, weight: b.weight, size: b.size, num_txs: b.numTxs,
    }));
    let answer: any;
    let last: unknown = null;
    try {
      await waitFor(async () => {
        // A node call failing once on a loaded machine (the answer is then a 503 on one engine) is not what this
        // test is about: poll on; a disagreement that lasts fails with its last reply below.
        try {
          answer = (await get(`${V3}/network_info/${N}`)).body.data;
          last = null;
        } catch (error) {
          last = error;
          return false;
        }
        return answer.mempool.mempool_txs === txids.length;
      }, 15_000, 'the projection to catch up', 100);
    } catch (error) {
      throw last ?? error;
    }
    assert.deepEqual(answer.mempool.blocks, expected);
    assert.deepEqual(answer.mempool.blocks.map((b: any) => b.block_num), [1, 2, 3, 4, 5, 6], 'always the next 6 blocks');
    assert.ok(answer.mempool.blocks.some((b: any) => b.num_txs === 0), 'a few hundred txs fill one block; the rest are empty ones');
    assert.equal(answer.mempool.mempool_size, entries.reduce((s, e) => s + e.size!, 0));
    assert.ok(Math.abs(answer.mempool.updated_at - Date.now() / 1000) < 30);
    assert.equal(answer.block_count, await node.rpc.call<number>('getblockcount'));
    assert.equal(answer.best_block_hash, await node.rpc.call<string>('getbestblockhash'));
    assert.match(answer.hashrate, /^\d+$/);
    assert.equal(answer.syncing, false);
  });
});

