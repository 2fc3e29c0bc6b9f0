/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * v2 transaction endpoints against a live index (litecoind regtest, SQLite and PostgreSQL): reads, send_tx, confidence.
 * The chain and the apps: v2-chain.ts. The node is the oracle; the two engines must answer identically.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import type { RegtestNode } from '../helpers/regtest-node.js';
import { N, nodeTx as nodeTxOf, signedSpend as signedSpendOf, startV2Chain, V2, type NodeTx, type Payment, type V2Chain } from './v2-chain.js';
import { getBoth, postBoth, sync, type EngineApp } from './v2-fixture.js';

let chain: V2Chain;
let node: RegtestNode;
let apps: EngineApp[];
let addrA: string;
let paymentsA: Payment[];
let b1Hash: string;
let recv: RpcClient;

before(async () => {
  chain = await startV2Chain();
  ({ node, apps, addrA, paymentsA, b1Hash, recv } = chain);
});

after(async () => {
  await chain?.stop();
});

const nodeTx = (txid: string): Promise<NodeTx> => nodeTxOf(node, txid);
const signedSpend = (outpoint: { txid: string; vout: number }, value: bigint, fee = 100_000n, wallet = recv): Promise<{ hex: string; txid: string }> =>
  signedSpendOf(node, wallet, outpoint, value, fee);

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
