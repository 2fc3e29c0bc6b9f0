/**
 * v2 error shapes: every row of the error table, unknown routes, and 1,500 seeded malformed requests, never a 500.
 * The chain and the apps: v2-chain.ts. The node is the oracle; the two engines must answer identically.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { N, startV2Chain, V2, type Payment, type V2Chain } from './v2-chain.js';
import { getBoth, type EngineApp } from './v2-fixture.js';
import { assertNoStackTrace, malformedUrls } from './malformed-urls.js';

let chain: V2Chain;
let apps: EngineApp[];
let addrA: string;
let paymentsA: readonly Payment[];
let b1Hash: string;

before(async () => {
  chain = await startV2Chain();
  ({ apps, addrA, paymentsA, b1Hash } = chain);
});

after(async () => {
  await chain?.stop();
});

describe('v2 error table: every row answers its shape and status, never 500', () => {
  const badTxid = 'zz';
  const unknownTxid = 'ab'.repeat(32);
  const rows: [string, number, string[] | 'B'][] = [];
  const A = (url: string, keys: string[]) => rows.push([url, 404, keys]);
  before(() => {
    const k1 = ['network', 'address', 'confirmations'];
    A(`/get_address_balance/BTC/${addrA}`, k1);
    A(`/get_address_balance/ltctest/${addrA}`, k1);
    A(`/get_address_balance/${N}/mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfX`, k1);
    A(`/get_address_balance/${N}/${addrA}/-1`, k1);
    A(`/get_address_balance/${N}/${addrA}/99999999999999999999`, k1);
    A(`/get_address_balance/${N}/${addrA}/1e3`, k1);
    for (const op of ['get_address_received', 'get_address_spent']) {
      A(`/${op}/DOGE/${addrA}`, ['network', 'address']);
      A(`/${op}/${N}/${'x'.repeat(150)}`, ['network', 'address']);
    }
    for (const op of ['get_tx_unspent', 'get_tx_received', 'get_tx_spent']) {
      A(`/${op}/FOO/${addrA}`, ['network', 'address', 'after_tx']);
      A(`/${op}/${N}/nope`, ['network', 'address', 'after_tx']);
      A(`/${op}/${N}/${addrA}/${unknownTxid}`, ['network', 'address', 'after_tx']);
      A(`/${op}/${N}/${addrA}/${paymentsA[paymentsA.length - 1]?.txid ?? unknownTxid}x`, ['network', 'address', 'after_tx']);
      A(`/${op}/${N}/${addrA}/-5`, ['network', 'address', 'after_tx']);
    }
    A(`/is_address_valid/BTCTEST/${addrA}`, ['network', 'address']);
    rows.push([`/address/BTC/${addrA}`, 404, 'B'], [`/address/${N}/bad`, 404, 'B']);
    A(`/get_confidence/DOGETEST/${unknownTxid}`, ['network', 'txid']);
    A(`/get_confidence/${N}/${badTxid}`, ['network', 'txid']);
    A(`/get_confidence/${N}/${unknownTxid}`, ['network', 'txid']);
    A(`/get_tx_inputs/${N}/${badTxid}`, ['network', 'txid', 'input_no']);
    A(`/get_tx_inputs/${N}/${paymentsA[0]!.txid}/999`, ['network', 'txid', 'input_no']);
    A(`/get_tx_inputs/${N}/${paymentsA[0]!.txid}/x`, ['network', 'txid', 'input_no']);
    A(`/get_tx_outputs/LTC/${paymentsA[0]!.txid}`, ['network', 'txid', 'output_no']);
    A(`/get_tx_outputs/${N}/${paymentsA[0]!.txid}/99`, ['network', 'txid', 'output_no']);
    A(`/get_tx/${N}/${unknownTxid}`, ['network', 'txid']);
    A(`/get_tx/XYZ/${unknownTxid}`, ['network', 'txid']);
    A(`/is_tx_confirmed/${N}/${'g'.repeat(64)}`, ['network', 'txid']);
    A(`/is_tx_spent/${N}/${paymentsA[0]!.txid}/77`, ['network', 'txid', 'output_no']);
    A(`/is_tx_spent/${N}/${paymentsA[0]!.txid}/-1`, ['network', 'txid', 'output_no']);
    A(`/is_tx_spent/${N}/${badTxid}/0`, ['network', 'txid', 'output_no']);
    rows.push([`/tx/${N}/${unknownTxid}`, 404, 'B'], [`/tx/BTC/${unknownTxid}`, 404, 'B']);
    A(`/get_blockhash/${N}/99999999`, ['network', 'block_no']);
    A(`/get_blockhash/${N}/abc`, ['network', 'block_no']);
    A(`/get_blockhash/DOGE/1`, ['network', 'block_no']);
    A(`/get_block/${N}/${unknownTxid}`, ['network', 'blockid']);
    A(`/get_block/${N}/-3`, ['network', 'blockid']);
    A(`/get_block/${N}/99999999999999999999999`, ['network', 'blockid']);
    rows.push([`/block/${N}/nothing`, 404, 'B'], [`/block/BTC/1`, 404, 'B']);
    rows.push([`/short/${N}/zzzz`, 400, 'B'], [`/short/${N}/${'y'.repeat(40)}`, 400, 'B'], [`/short/BTC/${addrA}`, 400, 'B']);
  });

  it('answers every malformed request with the documented shape', async () => {
    assert.ok(rows.length > 50);
    for (const [url, status, shape] of rows) {
      const r = await getBoth(apps, `${V2}${url}`);
      assert.equal(r.status, status, `${url}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.status, 'fail', url);
      if (shape === 'B') {
        assert.deepEqual(Object.keys(r.body).sort(), ['code', 'message', 'status'], url);
        assert.equal(r.body.code, 404, url);
        assert.equal(typeof r.body.message, 'string');
      } else {
        assert.deepEqual(Object.keys(r.body.data).sort(), [...shape].sort(), url);
        for (const v of Object.values(r.body.data)) assert.equal(typeof v, 'string');
      }
      assertNoStackTrace(r.body, url);
    }
  });

  it('unknown routes and methods answer a JSON fail shape', async () => {
    for (const url of ['/api/v2/nope', '/api/v2/get_tx', '/', '/api/v3/x']) {
      const r = await getBoth(apps, url);
      assert.equal(r.status, 404, url);
      assert.equal(r.body.status, 'fail');
    }
  });
});

describe('v2 under random malformed requests', () => {
  it('1,500 seeded requests: never 5xx, never a stack trace, a JSON (or JSONP) body, both engines alike', async () => {
    const mempool = paymentsA.find((p) => p.block === 'mempool')!;
    const urls = malformedUrls('v2', 20261123, 1500, { network: N, addresses: [addrA], txids: [paymentsA[0]!.txid, mempool.txid], blockHash: b1Hash });
    const statuses = new Set<number>();
    for (const url of urls) {
      const r = await getBoth(apps, `${V2}${url}`); // throws when the engines disagree
      statuses.add(r.status);
      assert.ok(r.status < 500, `${url}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      if (typeof r.body === 'string') assert.match(r.body, /^(\/\*\*\/ ?)?[\w.$]+\(/, `${url}: neither JSON nor JSONP`);
      assertNoStackTrace(r.body, url);
    }
    // The mix reaches real answers as well as every kind of refusal.
    for (const status of [200, 400, 404]) assert.ok(statuses.has(status), `some ${status} among ${[...statuses].join(', ')}`);
  });
});
