/**
 * The projection's mempool source keeps the node's entries between snapshots and updates them from the txid list
 * (src/node/rpc-mempool-source.ts): against a real bitcoind, every incremental snapshot equals a whole verbose read
 * through new txs, a parent with its child, a block confirming the parent only (the child's parent leaves its
 * `depends`), and a BIP125 replacement whose child leaves with it; the verbose mempool is read once, plus once per
 * FULL_REFRESH_MS, which is what catches a `prioritisetransaction` fee delta.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MempoolSourceEntry } from '../../src/core/sources/mempool-source.js';
import { FULL_REFRESH_MS, RpcMempoolSource } from '../../src/node/rpc-mempool-source.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { countingCalls } from '../helpers/counting-proxy.js';

let node: RegtestNode;

before(async () => {
  node = await startBitcoind({ funded: true });
});
after(async () => {
  await node?.stop();
});

/**
 * A wallet's tx is in the node's mempool before the test reads it, and every wallet has heard of it: a wallet learns of
 * mempool txs through the node's validation queue, after the RPC that made them returned, so another wallet could
 * still lack the coin it is about to spend (seen on Node 24 in CI: the child missing right after its wallet's send).
 * A tx the wallet kept but could not broadcast is sent again here, so the node names its reason.
 */
async function settled(wallet: RpcClient, txid: string): Promise<string> {
  const listed = await node.rpc.call<string[]>('getrawmempool');
  if (!listed.includes(txid)) await node.rpc.call('sendrawtransaction', [(await wallet.call<{ hex: string }>('gettransaction', [txid])).hex]);
  await node.rpc.call('syncwithvalidationinterfacequeue', []);
  return txid;
}

const byTxid = (entries: readonly MempoolSourceEntry[]) =>
  [...entries].sort((a, b) => (a.txid < b.txid ? -1 : 1)).map((e) => ({ ...e, depends: [...e.depends].sort() }));

describe('RpcMempoolSource against bitcoind', () => {
  it('stays equal to a whole verbose read through new txs, a child, a partial block and a replacement; refreshes whole every FULL_REFRESH_MS', async () => {
    let now = 1_700_000_000_000;
    const counted = countingCalls(node.node, 'getRawMempoolVerbose');
    const source = new RpcMempoolSource(counted.proxy, () => now);
    const check = async (label: string): Promise<void> => {
      now += 1_000;
      const [ours, whole] = [await source.snapshot(), await new RpcMempoolSource(node.node).snapshot()];
      assert.deepEqual(byTxid(ours.entries), byTxid(whole.entries), label);
      assert.equal(ours.minFeeRate, whole.minFeeRate, label);
    };
    const walker: RpcClient = await node.createWallet('walker');
    const child: RpcClient = await node.createWallet('child');
    await node.send(await walker.call<string>('getnewaddress', ['', 'bech32']), '2.5');
    await node.mine(1);

    await check('empty');
    for (let i = 0; i < 3; i++) await node.send(await node.newAddress('bech32'), '0.0123');
    await check('three new txs');
    // A parent paying the child wallet, which spends that output at once.
    const parent = await settled(walker, await walker.call<string>('sendtoaddress', [await child.call<string>('getnewaddress', ['', 'bech32']), '1.0']));
    const spend = await child.call<{ txid: string }>('send', [{ [await node.newAddress('bech32')]: '0.5' }, null, 'unset', null, { include_unsafe: true }]);
    await settled(child, spend.txid);
    await check('a parent and its child');
    assert.deepEqual((await source.snapshot()).entries.find((e) => e.txid === spend.txid)?.depends, [parent]);

    // A block with the parent only: the child stays, needing nothing in the mempool any more.
    const parentHex = await node.rpc.call<string>('getrawtransaction', [parent]);
    await node.rpc.call('generateblock', [await node.newAddress('bech32'), [parentHex]]);
    await check('a block confirming the parent only');
    assert.deepEqual((await source.snapshot()).entries.find((e) => e.txid === spend.txid)?.depends, []);

    // The child wallet spends the unconfirmed child's change, then replaces that spend (BIP125), which leaves.
    const second = await child.call<{ txid: string }>('send', [{ [await node.newAddress('bech32')]: '0.1' }, null, 'unset', null, { include_unsafe: true }]);
    await settled(child, second.txid);
    await check('a grandchild');
    const spent = await node.rpc.call<{ vin: { txid: string; vout: number }[]; vout: { value: number }[] }>('getrawtransaction', [second.txid, true]);
    const { fee } = await child.call<{ fee: number }>('gettransaction', [second.txid]);
    const total = spent.vout.reduce((sum, o) => sum + Math.round(o.value * 1e8), 0) + Math.round(-fee * 1e8);
    const unsigned = await child.call<string>('createrawtransaction', [
      spent.vin.map((v) => ({ txid: v.txid, vout: v.vout })), { [await child.call<string>('getnewaddress', ['', 'bech32'])]: ((total - 50_000) / 1e8).toFixed(8) },
    ]);
    const signed = await child.call<{ hex: string }>('signrawtransactionwithwallet', [unsigned]);
    const replacement = await node.rpc.call<string>('sendrawtransaction', [signed.hex]);
    await check('a replacement');
    const txids = (await source.snapshot()).entries.map((e) => e.txid);
    assert.ok(txids.includes(replacement) && !txids.includes(second.txid));
    assert.equal(counted.calls(), 1, 'the whole verbose mempool was read once');

    // A fee delta changes no txid: only the periodic whole read sees it.
    await node.rpc.call('prioritisetransaction', [replacement, 0, 1_000_000]);
    const before = (await source.snapshot()).entries.find((e) => e.txid === replacement)!.fee;
    now += FULL_REFRESH_MS;
    const afterRefresh = (await source.snapshot()).entries.find((e) => e.txid === replacement)!.fee;
    assert.equal(afterRefresh - before, 1_000_000n);
    assert.equal(counted.calls(), 2);
    await check('after the whole read');
  });
});
