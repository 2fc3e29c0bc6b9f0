/**
 * Our parser and script/address code against the nodes' own view of real regtest chains:
 * every block equals `getblock <hash> 2`, every mempool tx equals `getrawtransaction <txid> 1`.
 * The chains hold every wallet address type, spends from each, OP_RETURN, multisig (P2SH, P2WSH),
 * taproot (bitcoind) and Litecoin MWEB (peg-in, HogEx from activation at 432, MWEB-only, peg-out).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { parseBlock, parseTransaction } from '../../src/chains/parsing.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { mwebActivate } from '../helpers/mweb-activate.js';
import { startBitcoind, startLitecoind, type AddressType, type RegtestNode } from '../helpers/regtest-node.js';
import { compareBlock, compareTx, ParityReport } from '../helpers/rpc-parity.js';

const LTC = getNetworkParams('LTCTEST', 'regtest');
const BTC = getNetworkParams('BTCTEST', 'regtest');

/** Pays 1 coin to each type in a second wallet, then spends all of it in one tx (every input kind). */
async function receiveAndSpendEach(node: RegtestNode, types: readonly AddressType[]): Promise<void> {
  const spender = await node.createWallet('spender');
  for (const type of types) await node.send(await spender.call<string>('getnewaddress', ['', type]), '1');
  await node.mine(1);
  await spender.call('sendtoaddress', [await node.newAddress('bech32'), String(types.length - 0.01), '', '', true]);
}

async function sendOpReturn(node: RegtestNode): Promise<string> {
  const raw = await node.rpc.call<string>('createrawtransaction', [[], [{ data: Buffer.from('outpoint parity').toString('hex') }]]);
  // Locked: the wallet learns of a tx sent with sendrawtransaction only through the node's notification queue, so a
  // wallet send right after could pick the same coin, and the node would refuse that conflict while sendtoaddress
  // still returns its txid (the multisig payment went missing so once in CI).
  const funded = await node.wallet.call<{ hex: string }>('fundrawtransaction', [raw, { lockUnspents: true }]);
  const signed = await node.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [funded.hex]);
  return node.rpc.call<string>('sendrawtransaction', [signed.hex]);
}

/**
 * Node's verbose form and our parse of every mempool tx, collected before they are mined. Txs
 * carrying an MWEB body (Litecoin mempool form) go to `mwebReport`: their weight follows
 * Litecoin's own rule (peg-out outputs and peg-in kernels add weight), kept apart so a
 * failure there names itself.
 */
async function compareMempool(node: RegtestNode, report: ParityReport, mwebReport?: ParityReport): Promise<void> {
  for (const txid of await node.node.getRawMempool()) {
    const verbose = await node.rpc.call('getrawtransaction', [txid, 1], { exactDecimals: true });
    const tx = parseTransaction(await node.node.getRawTransaction(txid), { mweb: mwebReport !== undefined });
    compareTx(tx.hasMwebBody && mwebReport ? mwebReport : report, tx, verbose, 'mempool');
  }
}

async function compareChain(node: RegtestNode, report: ParityReport): Promise<void> {
  const height = await node.rpc.call<number>('getblockcount');
  for (let from = 0; from <= height; from += 50) {
    const heights = Array.from({ length: Math.min(50, height - from + 1) }, (_, i) => from + i);
    const hashes = (await node.rpc.batch<string>(heights.map((h) => ({ method: 'getblockhash', params: [h] })))) as string[];
    const verbose = await node.rpc.batch(hashes.map((hash) => ({ method: 'getblock', params: [hash, 2] })), { exactDecimals: true });
    const raw = await node.node.getRawBlocks(hashes);
    raw.forEach((bytes, i) => compareBlock(report, parseBlock(bytes, report.params.features), verbose[i]));
  }
}

async function multisigAddresses(node: RegtestNode, wallet: RpcClient, types: readonly AddressType[]): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < 2; i++) {
    const info = await wallet.call<{ pubkey: string }>('getaddressinfo', [await node.newAddress('bech32')]);
    keys.push(info.pubkey);
  }
  const out: string[] = [];
  for (const type of types) out.push((await node.rpc.call<{ address: string }>('createmultisig', [1, keys, type])).address);
  return out;
}

describe('parity with litecoind -regtest (segwit, MWEB)', () => {
  let node: RegtestNode;
  const report = new ParityReport(LTC);
  const mwebMempool = new ParityReport(LTC);

  before(async () => {
    node = await startLitecoind({ funded: true });
    await receiveAndSpendEach(node, ['legacy', 'p2sh-segwit', 'bech32']);
    await sendOpReturn(node);
    for (const address of await multisigAddresses(node, node.wallet, ['legacy', 'p2sh-segwit', 'bech32'])) await node.send(address, '0.3');
    await compareMempool(node, report, mwebMempool);
    await node.mine(1);

    // MWEB: activation block (peg-in + first HogEx), a transfer into a second wallet, a peg-out
    const height = await node.rpc.call<number>('getblockcount');
    await node.mine(431 - height);
    const { pegInTxid } = await mwebActivate(node, () => compareMempool(node, report, mwebMempool));
    assert.equal((await node.rpc.call<{ confirmations: number }>('getrawtransaction', [pegInTxid, 1])).confirmations, 1);
    const mw = await node.createWallet('mw');
    await node.send(await mw.call<string>('getnewaddress', ['', 'mweb']), '2');
    await compareMempool(node, report, mwebMempool);
    await node.mine(1);
    await mw.call('sendtoaddress', [await node.newAddress('bech32'), '0.5']); // peg-out
    await compareMempool(node, report, mwebMempool);
    await node.mine(1);
    await mw.call('sendtoaddress', [await mw.call<string>('getnewaddress', ['', 'mweb']), '0.25']); // MWEB only
    await node.send(await mw.call<string>('getnewaddress', ['', 'mweb']), '0.75'); // another peg-in
    await compareMempool(node, report, mwebMempool);
    await node.mine(1);
    await compareChain(node, report);
  });
  after(async () => {
    await node?.stop();
  });

  test('every block and mempool tx equals the node', () => {
    assert.ok(report.blocks >= 435 && report.txs > 440, `${report.blocks} blocks, ${report.txs} txs`);
    assert.deepEqual(report.mismatches, [], report.summary());
  });

  test('mempool txs with an MWEB body (peg-in, MWEB-only, peg-out) equal the node, weight included', () => {
    assert.ok(mwebMempool.txs >= 4, `${mwebMempool.txs} MWEB mempool txs`);
    assert.deepEqual(mwebMempool.mismatches, [], mwebMempool.summary());
  });

  test('the chain covers every script type the wallet makes, MWEB ones included', () => {
    for (const type of ['pubkeyhash', 'scripthash', 'witness_v0_keyhash', 'witness_v0_scripthash', 'nulldata', 'witness_mweb_pegin', 'witness_mweb_hogaddr']) {
      assert.ok(report.scriptTypes.has(type), `no ${type} output in ${[...report.scriptTypes].join(', ')}`);
    }
  });
});

describe('parity with bitcoind -regtest (segwit, taproot)', () => {
  let node: RegtestNode;
  const report = new ParityReport(BTC);

  before(async () => {
    node = await startBitcoind({ funded: true });
    await receiveAndSpendEach(node, ['legacy', 'p2sh-segwit', 'bech32', 'bech32m']);
    await sendOpReturn(node);
    for (const address of await multisigAddresses(node, node.wallet, ['legacy', 'p2sh-segwit', 'bech32'])) await node.send(address, '0.3');
    await compareMempool(node, report);
    await node.mine(1);
    await compareChain(node, report);
  });
  after(async () => {
    await node?.stop();
  });

  test('every block and mempool tx equals the node', () => {
    assert.ok(report.blocks >= 103 && report.txs > 110, `${report.blocks} blocks, ${report.txs} txs`);
    assert.deepEqual(report.mismatches, [], report.summary());
  });

  test('the chain covers every script type the wallet makes, taproot included', () => {
    for (const type of ['pubkeyhash', 'scripthash', 'witness_v0_keyhash', 'witness_v0_scripthash', 'witness_v1_taproot', 'nulldata']) {
      assert.ok(report.scriptTypes.has(type), `no ${type} output in ${[...report.scriptTypes].join(', ')}`);
    }
  });
});
