/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * Every v2 endpoint against a live index: litecoind regtest → indexers on SQLite and PostgreSQL →
 * one Fastify app per engine. The node is the oracle; the two engines must answer identically.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc-client.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { appsOnBothEngines, getBoth, postBoth, sync, type EngineApp } from './v2-fixture.js';
import { assertNoStackTrace, malformedUrls } from './malformed-urls.js';

let node: RegtestNode;
let engines: StoreEngines;
let apps: EngineApp[];

const N = 'LTCTEST';
const V2 = '/api/v2';
/** addrA receives 60 payments (block B1, then 2 more blocks), 50 more (block B2) and 3 left in the mempool. */
let addrA: string;
const paymentsA: { txid: string; amount: bigint; block: 'B1' | 'B2' | 'mempool' }[] = [];
let b1Hash: string;
/** addrA's own wallet: the paying wallet "w" must never pick addrA's coins for its own sends. */
let recv: RpcClient;

interface NodeTx {
  txid: string;
  hex: string;
  size: number;
  version: number;
  locktime: number;
  blockhash?: string;
  confirmations?: number;
  vin: { txid?: string; vout?: number; coinbase?: string }[];
  vout: { value: string; n: number; scriptPubKey: { hex: string; address?: string; addresses?: string[]; type: string } }[];
}

async function nodeTx(txid: string): Promise<NodeTx> {
  return node.rpc.call<NodeTx>('getrawtransaction', [txid, true], { exactDecimals: true });
}

async function pay(address: string, amounts: bigint[]): Promise<string[]> {
  const replies = await node.wallet.batch<string>(amounts.map((a) => ({ method: 'sendtoaddress', params: [address, formatCoins(a)] })));
  return replies.map((r) => {
    if (r instanceof Error) throw r;
    return r;
  });
}

/** A wallet-signed tx spending `outpoint` to a fresh address, not broadcast. */
async function signedSpend(outpoint: { txid: string; vout: number }, value: bigint, fee = 100_000n, wallet = recv): Promise<{ hex: string; txid: string }> {
  const outputs = { [await node.newAddress('bech32')]: formatCoins(value - fee) };
  const raw = await wallet.call<string>('createrawtransaction', [[outpoint], outputs]);
  const signed = await wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
  assert.ok(signed.complete);
  const { txid } = await node.rpc.call<{ txid: string }>('decoderawtransaction', [signed.hex]);
  return { hex: signed.hex, txid };
}


before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  apps = await appsOnBothEngines(engines, node);
  // Many confirmed coins so 113 wallet sends never chain unconfirmed change past the mempool's ancestor limit.
  await node.mine(20);
  const fan: Record<string, string> = {};
  for (let i = 0; i < 130; i++) fan[await node.newAddress('bech32')] = '0.5';
  await node.wallet.call('sendmany', ['', fan]);
  await node.mine(1);
  recv = await node.createWallet('recv');
  addrA = await recv.call<string>('getnewaddress', ['', 'bech32']);
  const amounts = (from: number, n: number) => Array.from({ length: n }, (_, i) => 1_000_000n + BigInt(from + i) * 10_000n);
  for (const [i, txid] of (await pay(addrA, amounts(0, 60))).entries()) paymentsA.push({ txid, amount: amounts(0, 60)[i]!, block: 'B1' });
  [b1Hash] = await node.mine(1) as [string];
  await node.mine(2);
  for (const [i, txid] of (await pay(addrA, amounts(60, 50))).entries()) paymentsA.push({ txid, amount: amounts(60, 50)[i]!, block: 'B2' });
  await node.mine(1);
  for (const [i, txid] of (await pay(addrA, amounts(110, 3))).entries()) paymentsA.push({ txid, amount: amounts(110, 3)[i]!, block: 'mempool' });
  await sync(apps);
});

after(async () => {
  for (const a of apps ?? []) await a.app.close();
  await node?.stop();
  await engines?.close();
});

const sum = (items: { amount: bigint }[]) => items.reduce((s, p) => s + p.amount, 0n);

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

describe('v2 transaction endpoints', () => {
  let spendTxid: string;
  let spentOutpoint: { txid: string; vout: number };

  it('get_tx matches the node (hex, size, version, locktime, blockhash, confirmations, inputs, outputs)', async () => {
    const txid = paymentsA[0]!.txid;
    const expected = await nodeTx(txid);
    const r = await getBoth(apps, `${V2}/get_tx/${N}/${txid}`);
    const d = r.body.data;
    assert.equal(d.tx_hex, expected.hex);
    assert.equal(d.size, expected.size);
    assert.equal(d.version, expected.version);
    assert.equal(d.locktime, expected.locktime);
    assert.equal(d.blockhash, expected.blockhash);
    assert.equal(d.confirmations, expected.confirmations);
    assert.equal(d.inputs.length, expected.vin.length);
    assert.deepEqual(d.inputs.map((i: any) => i.from_output), expected.vin.map((v) => ({ txid: v.txid, output_no: v.vout })));
    assert.deepEqual(d.outputs.map((o: any) => [o.output_no, parseCoins(o.value), o.type]), expected.vout.map((v) => [v.n, parseCoins(String(v.value)), v.scriptPubKey.type]));
    assert.deepEqual(d.outputs.map((o: any) => o.address), expected.vout.map((v) => v.scriptPubKey.address ?? v.scriptPubKey.addresses?.[0]));
    const mempoolTx = await getBoth(apps, `${V2}/get_tx/${N}/${paymentsA[112]!.txid}`);
    assert.equal(mempoolTx.body.data.blockhash, null);
    assert.equal(mempoolTx.body.data.confirmations, 0);
  });

  it('answers stay current across blocks (confirmed views are reused only at the same tip)', async () => {
    const txid = paymentsA[0]!.txid;
    const before = (await getBoth(apps, `${V2}/get_tx/${N}/${txid}`)).body.data.confirmations as number;
    assert.equal((await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${txid}`)).body.data.confirmations, before);
    // An empty block: the mempool txs later tests rely on stay unconfirmed.
    await node.rpc.call('generateblock', [await node.newAddress('bech32'), []]);
    await sync(apps);
    assert.equal((await getBoth(apps, `${V2}/get_tx/${N}/${txid}`)).body.data.confirmations, before + 1);
    assert.equal((await getBoth(apps, `${V2}/get_tx_outputs/${N}/${txid}`)).body.data.outputs.length > 0, true);
    assert.equal((await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${txid}`)).body.data.confirmations, before + 1);
  });

  it('get_tx_inputs / get_tx_outputs, whole and by number; a coinbase input says coinbase', async () => {
    const txid = paymentsA[1]!.txid;
    const ins = await getBoth(apps, `${V2}/get_tx_inputs/${N}/${txid}`);
    assert.ok(Array.isArray(ins.body.data.inputs));
    const one = await getBoth(apps, `${V2}/get_tx_inputs/${N}/${txid}/0`);
    assert.deepEqual(one.body.data.inputs, [ins.body.data.inputs[0]]);
    assert.deepEqual(Object.keys(one.body.data.inputs[0]), ['input_no', 'value', 'address', 'type', 'script', 'from_output']);
    const outs = await getBoth(apps, `${V2}/get_tx_outputs/${N}/${txid}`);
    assert.ok(Array.isArray(outs.body.data.outputs));
    const out1 = await getBoth(apps, `${V2}/get_tx_outputs/${N}/${txid}/1`);
    assert.deepEqual(out1.body.data.outputs, outs.body.data.outputs[1], 'a single object when a number is given');
    const block = await node.rpc.call<{ tx: string[] }>('getblock', [b1Hash]);
    const cb = await getBoth(apps, `${V2}/get_tx_inputs/${N}/${block.tx[0]}`);
    assert.equal(cb.body.data.inputs[0].input_no, 0);
    assert.equal(cb.body.data.inputs[0].address, 'coinbase');
  });

  it('send_tx broadcasts a signed tx (form body), the spend shows in spent/unspent, then confirms', async () => {
    const unspent = await getBoth(apps, `${V2}/get_tx_unspent/${N}/${addrA}`);
    const pick = unspent.body.data.txs[0];
    spentOutpoint = { txid: pick.txid, vout: pick.output_no };
    const spend = await signedSpend(spentOutpoint, parseCoins(pick.value));
    const [sq, pg] = await postBoth(apps, `${V2}/send_tx/${N}`, `tx_hex=${spend.hex}`, 'application/x-www-form-urlencoded');
    assert.equal(sq!.status, 200, JSON.stringify(sq!.body));
    assert.deepEqual(sq!.body, { status: 'success', data: { network: N, txid: spend.txid }, network: N, txid: spend.txid });
    // the second engine's app sends the same tx again: the node answers it is already known
    assert.ok(pg!.status === 200 || pg!.status === 404);
    spendTxid = spend.txid;
    assert.ok((await node.rpc.call<string[]>('getrawmempool')).includes(spendTxid));
    await sync(apps);
    const spentList = await getBoth(apps, `${V2}/get_tx_spent/${N}/${addrA}`);
    assert.deepEqual(spentList.body.data.txs.map((t: any) => [t.txid, t.input_no, t.value, t.confirmations]), [[spendTxid, 0, pick.value, 0]]);
    const after = await getBoth(apps, `${V2}/get_tx_unspent/${N}/${addrA}`);
    assert.ok(!after.body.data.txs.some((t: any) => t.txid === pick.txid && t.output_no === pick.output_no), 'spent by a mempool tx: not listed');
    const isSpent = await getBoth(apps, `${V2}/is_tx_spent/${N}/${pick.txid}/${pick.output_no}`);
    assert.deepEqual(isSpent.body.data, { network: N, txid: pick.txid, output_no: pick.output_no, is_spent: true, spent: { txid: spendTxid, input_no: 0 } });
    const spentSum = await getBoth(apps, `${V2}/get_address_spent/${N}/${addrA}`);
    assert.equal(spentSum.body.data.unconfirmed_sent_value, pick.value);
  });

  it('send_tx refuses bad hex, undecodable bytes and a double spend with the node reason (404 shape A)', async () => {
    for (const [payload, type] of [
      ['tx_hex=zz', 'application/x-www-form-urlencoded'],
      ['{"tx_hex":"00"}', 'application/json'],
      ['{"tx_hex":', 'application/json'],
      ['{}', 'application/json'],
    ] as const) {
      for (const r of await postBoth(apps, `${V2}/send_tx/${N}`, payload, type)) {
        assert.equal(r.status, 404, payload);
        assert.equal(r.body.status, 'fail');
        assert.deepEqual(Object.keys(r.body.data).sort(), ['network', 'tx_hex'], payload);
      }
    }
    const conflict = await signedSpend(spentOutpoint, 1_000_000n, 200_000n);
    const [r] = await postBoth(apps, `${V2}/send_tx/${N}`, JSON.stringify({ tx_hex: conflict.hex }), 'application/json');
    assert.equal(r!.status, 404);
    assert.match(r!.body.data.tx_hex, /conflict|missingorspent|insufficient/i, r!.body.data.tx_hex);
    const [unsupported] = await postBoth(apps, `${V2}/send_tx/BTC`, JSON.stringify({ tx_hex: conflict.hex }), 'application/json');
    assert.equal(unsupported!.status, 404);
    assert.match(unsupported!.body.data.network, /not supported/);
  });

  it('get_confidence: mempool tx in [0, 0.99], confirmed 1.0, double-spent 0.0', async () => {
    const pending = await getBoth(apps, `${V2}/get_confidence/${N}/${spendTxid}`);
    const d = pending.body.data;
    assert.deepEqual(Object.keys(d).sort(), ['confidence', 'confirmations', 'is_double_spend', 'network', 'nodes', 'nodes_sampled', 'txid']);
    assert.ok(d.confidence >= 0 && d.confidence <= 0.99, String(d.confidence));
    assert.equal(d.is_double_spend, false);
    assert.equal(d.confirmations, 0);
    // No P2P listener here: the local model, which samples our own node alone.
    assert.deepEqual([d.nodes, d.nodes_sampled], [1, 1]);
    const done = await getBoth(apps, `${V2}/get_confidence/${N}/${paymentsA[0]!.txid}`);
    const confirmations = (await nodeTx(paymentsA[0]!.txid)).confirmations;
    assert.deepEqual(done.body.data, { network: N, txid: paymentsA[0]!.txid, confidence: 1, confirmations, nodes: null, nodes_sampled: null, is_double_spend: null });
    // A mempool tx whose input a block spends elsewhere (Litecoin has no RBF: the conflict comes mined).
    const victim = paymentsA[112]!.txid;
    const victimTx = await nodeTx(victim);
    const input = victimTx.vin[0]! as { txid: string; vout: number };
    const prev = await nodeTx(input.txid);
    const conflict = await signedSpend(input, parseCoins(String(prev.vout[input.vout]!.value)), 100_000n, node.wallet);
    await node.rpc.call('generateblock', [await node.newAddress('bech32'), [conflict.hex]]);
    await sync(apps);
    const ds = await getBoth(apps, `${V2}/get_confidence/${N}/${victim}`);
    assert.equal(ds.body.data.confidence, 0);
    assert.equal(ds.body.data.is_double_spend, true);
    paymentsA.pop();
  });

  it('is_tx_confirmed and get_confidence agree: 1 confirmation for a payment, 240 for a coinbase', async () => {
    await node.mine(1);
    await sync(apps);
    const paid = await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${spendTxid}`);
    assert.deepEqual(paid.body.data, { network: N, txid: spendTxid, confirmations: 1, is_confirmed: true });
    // A coinbase with exactly 10 confirmations: not confirmed by the spec's rule, so its confidence is below 1.0.
    const tip = await node.rpc.call<number>('getblockcount');
    const tenDeep = await node.rpc.call<{ tx: string[] }>('getblock', [await node.rpc.call<string>('getblockhash', [tip - 9])]);
    const tenConfirmed = await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${tenDeep.tx[0]}`);
    assert.deepEqual([tenConfirmed.body.data.confirmations, tenConfirmed.body.data.is_confirmed], [10, false]);
    const tenConfidence = await getBoth(apps, `${V2}/get_confidence/${N}/${tenDeep.tx[0]}`);
    assert.deepEqual(tenConfidence.body.data, { network: N, txid: tenDeep.tx[0], confidence: 0.04, confirmations: 10, nodes: 1, nodes_sampled: 1, is_double_spend: false });
    const block1 = await node.rpc.call<{ tx: string[] }>('getblock', [await node.rpc.call<string>('getblockhash', [1])]);
    const young = await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${block1.tx[0]}`);
    assert.equal(young.body.data.is_confirmed, false, `coinbase with ${young.body.data.confirmations} confirmations`);
    assert.ok((await getBoth(apps, `${V2}/get_confidence/${N}/${block1.tx[0]}`)).body.data.confidence < 1);
    await node.mine(239 - young.body.data.confirmations);
    await sync(apps);
    const almost = await getBoth(apps, `${V2}/get_confidence/${N}/${block1.tx[0]}`);
    assert.deepEqual([almost.body.data.confirmations, almost.body.data.confidence], [239, 0.99]);
    assert.equal((await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${block1.tx[0]}`)).body.data.is_confirmed, false);
    await node.mine(1);
    await sync(apps);
    const old = await getBoth(apps, `${V2}/is_tx_confirmed/${N}/${block1.tx[0]}`);
    assert.equal(old.body.data.confirmations, 240);
    assert.equal(old.body.data.is_confirmed, true);
    const sure = await getBoth(apps, `${V2}/get_confidence/${N}/${block1.tx[0]}`);
    assert.deepEqual(sure.body.data, { network: N, txid: block1.tx[0], confidence: 1, confirmations: 240, nodes: null, nodes_sampled: null, is_double_spend: null });
  });

  it('tx display: fee, sent value, spenders, code/message', async () => {
    const r = await getBoth(apps, `${V2}/tx/${N}/${spendTxid}`);
    assert.equal(r.body.code, 200);
    assert.equal(r.body.message, '');
    const d = r.body.data;
    assert.equal(d.fee, '0.00100000');
    assert.equal(typeof d.block_no, 'number');
    assert.equal(d.blockhash, (await nodeTx(spendTxid)).blockhash);
    assert.equal(parseCoins(d.sent_value) + parseCoins(d.fee), parseCoins(d.inputs[0].value));
    assert.equal(d.outputs[0].spent, null);
  });
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

  it('answers every malformed request with the spec shape', async () => {
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
