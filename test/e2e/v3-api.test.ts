/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * Every v3 endpoint and error against a live index: litecoind regtest → indexers on SQLite and PostgreSQL →
 * one app per engine with the same account and key. The node is the oracle; both engines must agree. The mempool
 * projection of network_info has its own file (v3-projection.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { AccountService } from '../../src/services/accounts/account-service.js';
import { syncAll, type IndexedEngine } from '../helpers/indexer-harness.js';
import type { RegtestNode } from '../helpers/regtest-node.js';
import { assertNoStackTrace, malformedUrls } from './malformed-urls.js';
import { call, callBoth, sameAccountIn, startV3Chain, type V3Chain } from './v3-fixture.js';

const N = 'LTCTEST';
const V3 = '/api/v3';
let chain: V3Chain;
let node: RegtestNode;
let indexed: IndexedEngine[];
let apps: FastifyInstance[];
let key: string;
let recv: RpcClient;
/** 25 payments to addrA: 23 confirmed over 2 blocks, 2 in the mempool. */
let addrA: string;
const paymentsA: { txid: string; amount: bigint; confirmed: boolean }[] = [];
/** addrB: one confirmed coin, spent by a mempool tx (unconfirmed balance negative). */
let addrB: string;

const get = (url: string) => callBoth(apps, url, key);
/** A test network's price object: the spec types it {value: string, currency}, so never null. */
const NO_VALUE = { value: '0.00000000', currency: 'USD', updated_at: 0 };
const sync = () => syncAll(indexed);

async function pay(address: string, amounts: bigint[]): Promise<string[]> {
  const replies = await node.wallet.batch<string>(amounts.map((a) => ({ method: 'sendtoaddress', params: [address, formatCoins(a)] })));
  return replies.map((r) => {
    if (r instanceof Error) throw r;
    return r;
  });
}

before(async () => {
  chain = await startV3Chain();
  ({ node, indexed, apps, key } = chain);
  recv = await node.createWallet('recv');
  addrA = await recv.call<string>('getnewaddress', ['', 'bech32']);
  addrB = await recv.call<string>('getnewaddress', ['', 'bech32']);
  const amount = (i: number) => 1_000_000n + BigInt(i) * 10_000n;
  const batch = async (from: number, n: number, confirmed: boolean) => {
    const amounts = Array.from({ length: n }, (_, i) => amount(from + i));
    for (const [i, txid] of (await pay(addrA, amounts)).entries()) paymentsA.push({ txid, amount: amounts[i]!, confirmed });
  };
  await batch(0, 12, true);
  await node.wallet.call('sendtoaddress', [addrB, '2']);
  await node.mine(1);
  await batch(12, 11, true);
  await node.mine(1);
  await batch(23, 2, false);
  // addrB's coin goes back to the miner wallet from a mempool tx.
  await recv.call('sendtoaddress', [await node.newAddress('bech32'), '1.5']);
  await sync();
});

after(async () => {
  await chain?.stop();
});

describe('v3 authentication and errors', () => {
  it('answers 401 without a key, with an unknown key and with a revoked key', async () => {
    for (const [k, message] of [[null, /missing API key/], ['nope', /invalid API key/], [`opk_${'A'.repeat(43)}`, /invalid API key/]] as const) {
      const r = await call(apps[0]!, `${V3}/best_block_hash/${N}`, k);
      assert.equal(r.status, 401);
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.equal(r.body.status, 'fail');
      assert.match(r.body.data.error_message, message);
    }
    const { key: doomed } = await sameAccountIn([indexed[0]!.test.store.accounts()], 'doomed@x.io', 'e2e', 100);
    assert.equal((await call(apps[0]!, `${V3}/best_block_hash/${N}`, doomed)).status, 200);
    await new AccountService(indexed[0]!.test.store.accounts()).revoke(doomed.slice(0, 12));
    const r = await call(apps[0]!, `${V3}/best_block_hash/${N}`, doomed);
    assert.deepEqual([r.status, r.body], [401, { status: 'fail', data: { error_message: 'this API key was revoked' } }]);
  });

  it('answers 429 once the plan\'s daily quota is used, account_info still answers', async () => {
    const { key: small } = await sameAccountIn([indexed[0]!.test.store.accounts()], 'small@x.io', 'tiny', 3);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(apps[0]!, `${V3}/best_block_hash/${N}`, small)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const info = await call(apps[0]!, `${V3}/account_info`, small);
    assert.equal(info.status, 200);
    assert.deepEqual(info.body.data.plan, { name: 'tiny', max_daily_requests: 3, max_concurrent_requests: 0, current_period_ends_at: 4_000_000_000, will_renew_at_period_end: true });
    assert.deepEqual(info.body.data.num_requests_used, { today: 5, yesterday: 0 });
    assert.equal(info.body.last_login_at, 0);
  });

  it('answers 404 with the v3 body for unknown transactions, blocks, networks, addresses and paths', async () => {
    const cases: [string, RegExp][] = [
      [`/transaction/${N}/${'ab'.repeat(32)}`, /not known/],
      [`/transaction/${N}/xyz`, /valid transaction id/],
      [`/block/${N}/${'cd'.repeat(32)}`, /block hash or block number/],
      [`/block/${N}/99999`, /block hash or block number/],
      [`/balance/BTC/${'x'}`, /network BTC is not supported/],
      [`/balance/NOPE/x`, /not supported/],
      [`/balance/${N}/notanaddress`, /./],
      [`/transactions/${N}/notanaddress/1`, /./],
      [`/transactions/${N}/ADDR/0`, /page must be an integer from 1/],
      [`/price/${N}/yesterday`, /timestamp/],
      ['/no_such_thing', /no endpoint/],
      // A missing path segment: the operation's error naming it, not "no endpoint".
      [`/balance/${N}`, /^address is missing from the path \(\/api\/v3\/balance\/\{network\}\/\{address\}\)$/],
      [`/transaction/${N}/`, /^hash is missing from the path/],
      ['/transactions', /^network is missing from the path \(\/api\/v3\/transactions\/\{network\}\/\{address\}\[\/\{page\}\]\)$/],
      [`/block/${N}`, /^block is missing from the path/],
    ];
    for (const [path, message] of cases) {
      const r = await get(`${V3}${path.replace('ADDR', addrA)}`);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.status, 'fail', path);
      assert.match(r.body.data.error_message, message, path);
    }
  });
});

describe('v3 address endpoints', () => {
  it('transactions: 10 per page, newest first, page 1 first, past the end empty', async () => {
    const seen: any[] = [];
    for (let page = 1; page <= 4; page++) {
      const r = await get(`${V3}/transactions/${N}/${addrA}/${page}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.data.transactions.length, [10, 10, 5, 0][page - 1]);
      seen.push(...r.body.data.transactions);
    }
    assert.deepEqual((await get(`${V3}/transactions/${N}/${addrA}`)).body.data.transactions, seen.slice(0, 10), 'page defaults to 1');
    assert.deepEqual(new Set(seen.map((t) => t.hash)), new Set(paymentsA.map((p) => p.txid)));
    assert.ok(seen.slice(0, 2).every((t) => t.block === null), 'mempool txs are the newest');
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].block === null || seen[i - 1].block >= seen[i].block, 'descending');
    for (const t of seen) {
      const p = paymentsA.find((x) => x.txid === t.hash)!;
      assert.deepEqual([t.value_received, t.value_sent, t.balance_change, t.price], [formatCoins(p.amount), '0.00000000', formatCoins(p.amount), NO_VALUE]);
    }
  });

  it('unspent_outputs: 10 per page, oldest first, block null when unconfirmed, tx_hex of the funding tx', async () => {
    const all: any[] = [];
    for (let page = 1; page <= 4; page++) all.push(...(await get(`${V3}/unspent_outputs/${N}/${addrA}/${page}`)).body.data.outputs);
    assert.equal(all.length, 25);
    assert.ok(all.slice(-2).every((o) => o.block === null));
    for (let i = 1; i < 23; i++) assert.ok(all[i - 1].block <= all[i].block, 'ascending');
    const utxos = await recv.call<{ txid: string; vout: number; amount: string }[]>('listunspent', [0, 9999, [addrA]], { exactDecimals: true });
    assert.deepEqual(new Set(all.map((o) => `${o.hash}:${o.index}:${o.value}`)), new Set(utxos.map((u) => `${u.txid}:${u.vout}:${formatCoins(parseCoins(String(u.amount)))}`)));
    for (const o of all.slice(0, 3).concat(all.slice(-1))) {
      assert.equal(o.tx_hex, await node.rpc.call<string>('getrawtransaction', [o.hash, false]));
      assert.equal(o.address, addrA);
    }
  });

  it('balance, address_summary and transaction_counts, with a negative unconfirmed balance', async () => {
    const confirmed = paymentsA.filter((p) => p.confirmed).reduce((s, p) => s + p.amount, 0n);
    const pending = paymentsA.filter((p) => !p.confirmed).reduce((s, p) => s + p.amount, 0n);
    assert.deepEqual((await get(`${V3}/balance/${N}/${addrA}`)).body.data, { confirmed: formatCoins(confirmed), unconfirmed: formatCoins(pending) });
    const b = (await get(`${V3}/balance/${N}/${addrB}`)).body.data;
    assert.equal(b.confirmed, '2.00000000');
    assert.ok(b.unconfirmed.startsWith('-'), `negative: ${b.unconfirmed}`);
    assert.equal(parseCoins(b.unconfirmed.slice(1)), 200_000_000n, 'the whole coin left in the mempool spend');
    assert.deepEqual((await get(`${V3}/transaction_counts/${N}/${addrB}`)).body.data, { sent: 1, received: 1, total: 2 });
    assert.deepEqual((await get(`${V3}/address_summary/${N}/${addrB}`)).body.data, {
      txs_sent: 1, txs_received: 1, txs_total: 2, confirmed_balance: '2.00000000', unconfirmed_balance: b.unconfirmed, confirmed_received: '2.00000000',
    });
    assert.deepEqual((await get(`${V3}/transaction_counts/${N}/${addrA}`)).body.data, { sent: 0, received: 25, total: 25 });
    assert.deepEqual((await get(`${V3}/is_valid_address/${N}/${addrA}`)).body.data, { is_valid: true });
    assert.deepEqual((await get(`${V3}/is_valid_address/${N}/1BoatSLRHtKNngkdXEeobR76b53LETtpyT`)).body.data, { is_valid: false });
  });
});

describe('v3 transaction and block endpoints', () => {
  it('transaction matches the node: sizes, witness, scriptSig, previous outputs, spenders, fee', async () => {
    const spend = (await recv.call<{ txid: string; category: string; address: string }[]>('listtransactions', ['*', 100])).find((t) => t.category === 'send')!;
    for (const txid of [paymentsA[0]!.txid, spend.txid]) {
      const r = await get(`${V3}/transaction/${N}/${txid}`);
      const t = r.body.data;
      const n = await node.rpc.call<any>('getrawtransaction', [txid, true], { exactDecimals: true });
      assert.deepEqual([t.hash, t.size, t.vsize, t.weight, t.version, t.locktime], [n.txid, n.size, n.vsize, n.weight, n.version, n.locktime]);
      assert.equal(t.inputs_n, n.vin.length);
      assert.equal(t.outputs_n, n.vout.length);
      for (const [i, input] of t.inputs.entries()) {
        assert.deepEqual(input.previous_output, { hash: n.vin[i].txid, index: n.vin[i].vout });
        assert.deepEqual(input.witness, n.vin[i].txinwitness ?? []);
        assert.equal(input.scriptSig.hex, n.vin[i].scriptSig.hex);
      }
      const outputsValue = n.vout.reduce((s: bigint, o: any) => s + parseCoins(String(o.value)), 0n);
      assert.equal(t.outputs_value, formatCoins(outputsValue));
      assert.equal(t.fee, formatCoins(parseCoins(t.inputs_value) - outputsValue));
      assert.deepEqual(t.price, NO_VALUE);
      for (const [i, o] of t.outputs.entries()) assert.equal(o.script.hex, n.vout[i].scriptPubKey.hex);
    }
    const paid = (await get(`${V3}/transaction/${N}/${paymentsA[0]!.txid}`)).body.data;
    assert.equal(paid.block_height, (await node.rpc.call<any>('getblock', [paid.block_hash])).height);
    const funding = (await get(`${V3}/transaction/${N}/${paid.inputs[0].previous_output.hash}`)).body.data;
    assert.deepEqual(funding.outputs[paid.inputs[0].previous_output.index].spent, { hash: paid.hash, index: 0 });
    const mempool = (await get(`${V3}/transaction/${N}/${spend.txid}`)).body.data;
    assert.deepEqual([mempool.confirmations, mempool.block_hash, mempool.block_height], [0, null, null]);
  });

  it('block, best_block_hash and latest_blocks_summary match the node', async () => {
    const best = await node.rpc.call<string>('getbestblockhash');
    assert.deepEqual((await get(`${V3}/best_block_hash/${N}`)).body.data, { hash: best });
    const n = await node.rpc.call<any>('getblock', [best, 1]);
    const byHeight = (await get(`${V3}/block/${N}/${n.height}`)).body.data;
    const byHash = (await get(`${V3}/block/${N}/${best}`)).body.data;
    assert.deepEqual(byHeight, byHash);
    assert.deepEqual(
      [byHash.hash, byHash.height, byHash.previous_block_hash, byHash.next_block_hash, byHash.is_orphan, byHash.merkleroot, byHash.nonce, byHash.bits, byHash.size, byHash.weight, byHash.version, byHash.txs, byHash.confirmations, byHash.num_txs],
      [n.hash, n.height, n.previousblockhash, null, false, n.merkleroot, n.nonce, n.bits, n.size, n.weight, n.version, n.tx, 1, n.tx.length],
    );
    const stats = await node.rpc.call<any>('getblockstats', [best, ['totalfee', 'subsidy', 'total_out']]);
    assert.deepEqual([byHash.fees, byHash.reward], [formatCoins(BigInt(stats.totalfee)), formatCoins(BigInt(stats.subsidy))]);
    const summary = (await get(`${V3}/latest_blocks_summary/${N}`)).body.data.blocks;
    assert.equal(summary.length, 10);
    assert.deepEqual(summary.map((s: any) => s.height), Array.from({ length: 10 }, (_, i) => n.height - i));
    const coinbase = await node.rpc.call<any>('getrawtransaction', [n.tx[0], true], { exactDecimals: true });
    assert.equal(summary[0].miner, coinbase.vout[0].scriptPubKey.address ?? coinbase.vout[0].scriptPubKey.addresses[0]);
    assert.equal(summary[0].miner_tag, null, 'regtest coinbases carry no pool tag');
    assert.equal(summary[0].reward_and_fees, formatCoins(coinbase.vout.reduce((s: bigint, o: any) => s + parseCoins(String(o.value)), 0n)));
    assert.deepEqual([summary[0].num_txs, summary[0].weight, summary[0].price], [n.tx.length, n.weight, NO_VALUE]);
    assert.deepEqual(byHash.price, NO_VALUE);
  });

  it('price: test networks have no value, still as a price object with a string value', async () => {
    assert.deepEqual((await get(`${V3}/price/${N}`)).body.data, NO_VALUE);
    assert.deepEqual((await get(`${V3}/price/${N}/1700000000`)).body.data, NO_VALUE);
  });

  it('broadcast_transaction relays a signed tx and reports rejections as 404', async () => {
    const utxo = (await recv.call<any[]>('listunspent', [1, 9999, [addrA]]))[0];
    const raw = await recv.call<string>('createrawtransaction', [[{ txid: utxo.txid, vout: utxo.vout }], { [await node.newAddress('bech32')]: '0.009' }]);
    const signed = await recv.call<{ hex: string }>('signrawtransactionwithwallet', [raw]);
    const ok = await call(apps[0]!, `${V3}/broadcast_transaction/${N}`, key, 'POST', { tx_hex: signed.hex });
    assert.equal(ok.status, 200);
    const txid = (await node.rpc.call<any>('decoderawtransaction', [signed.hex])).txid;
    assert.deepEqual(ok.body.data, { network: N, hash: txid });
    const again = await call(apps[1]!, `${V3}/broadcast_transaction/${N}`, key, 'POST', { tx_hex: '00' });
    assert.equal(again.status, 404);
    assert.match(again.body.data.error_message, /rejected by the network/);
    const missing = await call(apps[1]!, `${V3}/broadcast_transaction/${N}`, key, 'POST', {});
    assert.equal(missing.status, 404);
    await sync();
  });
});

describe('v3 under random malformed requests', () => {
  it('answers JSON even with ?callback= (v3 offers no JSONP: a script tag cannot send API-KEY)', async () => {
    for (const url of [`${V3}/balance/${N}/${addrA}?callback=cb`, `${V3}/best_block_hash/nope?callback=cb`]) {
      const r = await get(url); // parses the body as JSON
      assert.match(String(r.headers['content-type']), /^application\/json/, url);
    }
    // v2 still wraps (same app).
    const v2 = await apps[0]!.inject({ method: 'GET', url: `/api/v2/get_info/${N}?callback=cb` });
    assert.match(v2.body, /^\/\*\*\/cb\(/);
  });

  it('1,000 seeded requests with a valid key: never 5xx, never a stack trace, JSON bodies, both engines alike', async () => {
    const tip = await node.rpc.call<string>('getbestblockhash');
    const mempool = paymentsA.find((p) => !p.confirmed)!;
    const urls = malformedUrls('v3', 20261123, 1000, { network: N, addresses: [addrA, addrB], txids: [paymentsA[0]!.txid, mempool.txid], blockHash: tip });
    // Its own account: the quota tests above exhaust theirs.
    const { key: fuzzKey } = await sameAccountIn(indexed.map((e) => e.test.store.accounts()), 'fuzz@x.io', 'fuzz', 1_000_000);
    const statuses = new Set<number>();
    for (const url of urls) {
      const r = await callBoth(apps, `${V3}${url}`, fuzzKey); // parses the body as JSON; throws when the engines disagree
      statuses.add(r.status);
      assert.ok(r.status < 500, `${url}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      assertNoStackTrace(r.body, url);
    }
    for (const status of [200, 404]) assert.ok(statuses.has(status), `some ${status} among ${[...statuses].join(', ')}`);
  });
});
