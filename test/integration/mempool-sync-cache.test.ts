/**
 * The indexer keeps the stored mempool's txids in memory between passes (src/indexer/mempool-sync.ts) instead of
 * reading them back every poll: against a real bitcoind on both engines, the store's list is read once per tip, and
 * after every pass (new txs, a BIP125 replacement with a child that leaves with it, a block) the stored mempool
 * still equals the node's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { assertTipAndMempoolMatchNode } from '../helpers/node-oracle.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { countingCalls } from '../helpers/counting-proxy.js';
import { waitFor } from '../helpers/wait-for.js';

const params = getNetworkParams('BTCTEST', 'regtest');
const engines = new StoreEngines();
let node: RegtestNode;

before(async () => {
  node = await startBitcoind({ funded: true });
});
after(async () => {
  await node?.stop();
  await engines.close();
});

for (const engine of testEngines()) {
  describe(`stored mempool txids kept in memory (${engine})`, () => {
    it('reads them once per tip and stays equal to the node through new txs, a replacement and a block', async () => {
      const test = await engines.create(engine);
      const store = test.store.network(params.id);
      const counted = countingCalls(store, 'getMempoolTxids');
      const infoReads = countingCalls(counted.proxy, 'getMempoolInfo');
      const bus = new MemoryEventBus();
      // Each tx_update carries the mempool's size after its pass, counted by the pass rather than read from the store.
      const sizes: number[] = [];
      bus.subscribe((event) => {
        if (event.kind === 'tx_accepted') sizes.push(event.mempoolSize);
      });
      const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store: infoReads.proxy, bus, logger: silentLogger });
      const walker: RpcClient = await node.createWallet(`walker-${engine}`);
      const child: RpcClient = await node.createWallet(`child-${engine}`);
      await node.send(await walker.call<string>('getnewaddress', ['', 'bech32']), '2.5');
      await node.mine(1);
      const pass = async (label: string): Promise<void> => {
        sizes.length = 0;
        for (let i = 0; i < 5 && (await indexer.syncOnce()).incomplete; i++);
        await assertTipAndMempoolMatchNode(node, store, `${engine}: ${label}`);
        if (sizes.length > 0) assert.equal(sizes.at(-1), (await store.getMempoolInfo()).count, `${engine}: ${label}: the size in tx_update`);
      };
      await pass('at the tip');
      const atTip = counted.calls();

      for (let i = 0; i < 3; i++) await node.send(await node.newAddress('bech32'), '0.0123');
      await pass('three new txs');
      await pass('nothing new');
      // A tx of the walker pays the child wallet, which spends that output at once: its child in the mempool.
      const [coin] = await walker.call<{ txid: string; vout: number }[]>('listunspent');
      const parent = await walker.call<string>('sendtoaddress', [await child.call<string>('getnewaddress', ['', 'bech32']), '1.0']);
      // The child wallet learns of the payment from the node's mempool asynchronously: spending before it has would
      // fail with "Insufficient funds" (seen on a loaded machine).
      await waitFor(async () => (await child.call<{ mine: { untrusted_pending: number } }>('getbalances')).mine.untrusted_pending >= 1, 10_000, 'the child wallet to see its payment');
      const spend = await child.call<{ txid: string }>('send', [{ [await node.newAddress('bech32')]: '0.5' }, null, 'unset', null, { include_unsafe: true }]);
      await pass('a parent and its child');
      const mempool = await node.rpc.call<string[]>('getrawmempool');
      assert.ok(mempool.includes(parent) && mempool.includes(spend.txid));
      // The walker spends the same coin again at a higher fee, to itself only (bumpfee refuses a tx with a child in the
      // mempool): the parent is replaced and its child, whose input is gone, leaves with it.
      const unsigned = await walker.call<string>('createrawtransaction', [[{ txid: coin!.txid, vout: coin!.vout }], { [await walker.call<string>('getnewaddress', ['', 'bech32'])]: '2.49' }]);
      const signed = await walker.call<{ hex: string }>('signrawtransactionwithwallet', [unsigned]);
      const replacement = await node.rpc.call<string>('sendrawtransaction', [signed.hex]);
      const after = await node.rpc.call<string[]>('getrawmempool');
      assert.ok(after.includes(replacement) && !after.includes(parent) && !after.includes(spend.txid), 'the node dropped the parent and its child');
      await pass('the replacement');
      assert.equal(counted.calls(), atTip, 'no store read of the mempool while the tip stayed');
      assert.equal(infoReads.calls(), 0, 'tx_update sizes come from the pass');

      await node.mine(1);
      await pass('a block');
      assert.equal(counted.calls(), atTip + 1, 'one read for the new tip');
      await pass('after the block');
      assert.equal(counted.calls(), atTip + 1);
    });
  });
}
