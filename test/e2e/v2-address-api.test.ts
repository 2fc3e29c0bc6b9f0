/**
 * v2 address endpoints against a live index (litecoind regtest, SQLite and PostgreSQL).
 * The chain and the apps: v2-chain.ts. The node is the oracle; the two engines must answer identically.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { N, startV2Chain, sum, V2, type Payment, type V2Chain } from './v2-chain.js';
import { getBoth, type EngineApp } from './v2-fixture.js';

let chain: V2Chain;
let apps: EngineApp[];
let addrA: string;
let paymentsA: readonly Payment[];
let recv: RpcClient;

before(async () => {
  chain = await startV2Chain();
  ({ apps, addrA, paymentsA, recv } = chain);
});

after(async () => {
  await chain?.stop();
});

describe('v2 address endpoints', () => {
  it('get_address_balance honours minimum confirmations (node getreceivedbyaddress as oracle)', async () => {
    const confirmed = paymentsA.filter((p) => p.block !== 'mempool');
    const cases: [string, bigint, bigint][] = [
      ['', sum(confirmed), sum(paymentsA.filter((p) => p.block === 'mempool'))],
      ['/0', sum(confirmed), sum(paymentsA.filter((p) => p.block === 'mempool'))],
      ['/1', sum(confirmed), sum(paymentsA.filter((p) => p.block === 'mempool'))],
      ['/2', sum(paymentsA.filter((p) => p.block === 'B1')), sum(paymentsA.filter((p) => p.block !== 'B1'))],
      ['/4', sum(paymentsA.filter((p) => p.block === 'B1')), sum(paymentsA.filter((p) => p.block !== 'B1'))],
      ['/5', 0n, sum(paymentsA)],
    ];
    for (const [suffix, conf, unconf] of cases) {
      const r = await getBoth(apps, `${V2}/get_address_balance/${N}/${addrA}${suffix}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { status: 'success', data: { network: N, address: addrA, confirmed_balance: formatCoins(conf), unconfirmed_balance: formatCoins(unconf) } }, suffix);
      const minconf = Math.max(1, Number(suffix.slice(1) || 0));
      const nodeView = await recv.call<string>('getreceivedbyaddress', [addrA, minconf], { exactDecimals: true });
      assert.equal(parseCoins(String(nodeView)), conf, `node agrees for minconf ${minconf}`);
    }
  });

  it('get_address_received / get_address_spent', async () => {
    const r = await getBoth(apps, `${V2}/get_address_received/${N}/${addrA}`);
    assert.deepEqual(r.body.data, {
      network: N, address: addrA,
      confirmed_received_value: formatCoins(sum(paymentsA.filter((p) => p.block !== 'mempool'))),
      unconfirmed_received_value: formatCoins(sum(paymentsA.filter((p) => p.block === 'mempool'))),
    });
    const s = await getBoth(apps, `${V2}/get_address_spent/${N}/${addrA}`);
    assert.deepEqual(s.body, { status: 'success', data: { network: N, address: addrA, confirmed_sent_value: '0.00000000', unconfirmed_sent_value: '0.00000000' } });
  });

  it('get_tx_received pages FIFO by 100 across 113 txs, then the mempool; an integer third segment is min confirmations', async () => {
    const first = await getBoth(apps, `${V2}/get_tx_received/${N}/${addrA}`);
    assert.equal(first.body.data.txs.length, 100);
    const tx0 = first.body.data.txs[0];
    assert.deepEqual(Object.keys(tx0), ['txid', 'output_no', 'script_asm', 'script_hex', 'value', 'confirmations', 'time']);
    assert.match(tx0.script_asm, /^0 [0-9a-f]{40}$/);
    const last = first.body.data.txs[99].txid;
    const second = await getBoth(apps, `${V2}/get_tx_received/${N}/${addrA}/${last}`);
    assert.equal(second.body.data.txs.length, 13);
    const all = [...first.body.data.txs, ...second.body.data.txs];
    assert.deepEqual(new Set(all.map((t: { txid: string }) => t.txid)), new Set(paymentsA.map((p) => p.txid)));
    // FIFO: B1 txs, then B2, then mempool (confirmations 0)
    const order = all.map((t: { txid: string }) => paymentsA.find((p) => p.txid === t.txid)!.block);
    assert.deepEqual(order, [...order].sort((a, b) => ['B1', 'B2', 'mempool'].indexOf(a) - ['B1', 'B2', 'mempool'].indexOf(b)));
    assert.deepEqual(all.slice(-3).map((t: { confirmations: number }) => t.confirmations), [0, 0, 0]);
    for (const t of all) assert.equal(parseCoins(t.value), paymentsA.find((p) => p.txid === t.txid)!.amount);
    const minconf = await getBoth(apps, `${V2}/get_tx_received/${N}/${addrA}/1`);
    assert.equal(minconf.body.data.txs.length, 100);
    const deep = await getBoth(apps, `${V2}/get_tx_received/${N}/${addrA}/2`);
    assert.equal(deep.body.data.txs.length, 60, 'only B1 has 2+ confirmations');
  });

  it('get_tx_unspent pages like received and leaves out outputs spent by an unconfirmed tx', async () => {
    const first = await getBoth(apps, `${V2}/get_tx_unspent/${N}/${addrA}`);
    assert.equal(first.body.data.txs.length, 100);
    const second = await getBoth(apps, `${V2}/get_tx_unspent/${N}/${addrA}/${first.body.data.txs[99].txid}`);
    assert.equal(second.body.data.txs.length, 13);
  });

  it('is_address_valid', async () => {
    assert.deepEqual((await getBoth(apps, `${V2}/is_address_valid/${N}/${addrA}`)).body.data, { network: N, address: addrA, is_valid: true });
    const mainnet = 'ltc1qg82mz8d5p4nk2zrzlnxkgzr0c3ld3ychpq5v2a';
    assert.equal((await getBoth(apps, `${V2}/is_address_valid/${N}/${mainnet}`)).body.data.is_valid, false);
    assert.equal((await getBoth(apps, `${V2}/is_address_valid/${N}/garbage`)).body.data.is_valid, false);
  });

  it('address display: totals and the latest 50 txs, newest first, with senders', async () => {
    const r = await getBoth(apps, `${V2}/address/${N}/${addrA}`);
    assert.equal(r.body.code, 200);
    assert.equal(r.body.message, '');
    assert.equal(r.body.data.total_txs, 113);
    assert.equal(r.body.data.txs.length, 50);
    assert.equal(r.body.data.balance, formatCoins(sum(paymentsA.filter((p) => p.block !== 'mempool'))));
    assert.equal(r.body.data.pending_value, formatCoins(sum(paymentsA.filter((p) => p.block === 'mempool'))));
    const newest = r.body.data.txs[0];
    assert.equal(newest.confirmations, 0);
    assert.ok(paymentsA.slice(-3).some((p) => p.txid === newest.txid));
    assert.ok(newest.incoming.senders.length >= 1);
    assert.equal(newest.outgoing, null);
  });

  it('short: both directions, stable, with the explorer link', async () => {
    const r = await getBoth(apps, `${V2}/short/${N}/${addrA}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.code, 200);
    const { short, link, address, network } = r.body.data;
    assert.match(short, /^[1-9A-HJ-NP-Za-km-z]{3,6}$/);
    assert.equal(address, addrA);
    assert.equal(network, N);
    assert.equal(link, `https://outpoint.test/s/${N}/${short}`);
    assert.deepEqual((await getBoth(apps, `${V2}/short/${N}/${short}`)).body.data, r.body.data);
    assert.deepEqual((await getBoth(apps, `${V2}/short/${N}/${addrA}`)).body.data.short, short, 'stable');
    // Following the link is the explorer's page: test/web/explorer-browse.test.ts.
  });
});
