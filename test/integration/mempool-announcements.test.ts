/**
 * The indexer following a real bitcoind's mempool over ZMQ `sequence`, as `outpoint serve` wires it (notifier →
 * indexer), on both engines, counted rather than timed (CI machines are loaded):
 * - a mempool of 6,000 real txs found at start is taken in two passes (a pass takes 5,000 at most, so a block found
 *   meanwhile waits for one pass, not the whole mempool): a read of the node's txid list each, fetches of 500 and
 *   store writes of 250;
 * - then 1,000 txs sent one by one are taken from the node's announcements: the list is read once more (the pass that
 *   makes the announcements trusted), not once per pass, and each tx is published once, in the order the node
 *   accepted it (tx_accepted on the bus, what realtime's tx_update follows);
 * - the stored mempool equals the node's at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { ZmqNotifier } from '../../src/node/notifiers/zmq-notifier.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { countingCalls } from '../helpers/counting-proxy.js';
import { fundCoins, freshScript, sendAll, SpendMaker } from '../helpers/mass-spends.js';
import { assertTipAndMempoolMatchNode } from '../helpers/node-oracle.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { waitFor } from '../helpers/wait-for.js';

const params = getNetworkParams('BTCTEST', 'regtest');
const AT_START = 6_000;
const BURST = 1_000;
const engines = new StoreEngines();
let node: RegtestNode;
let maker: SpendMaker;
let coins: Awaited<ReturnType<typeof fundCoins>>;

before(async () => {
  // -checkmempool=0: regtest checks the whole mempool at every tx by default (mainnet does not), O(n²) here.
  node = await startBitcoind({ wallet: false, extraArgs: ['-checkmempool=0'] });
  maker = new SpendMaker(params);
  coins = await fundCoins(node, maker, (AT_START + BURST) * testEngines().length);
});
after(async () => {
  await node?.stop();
  await engines.close();
});

for (const [round, engine] of testEngines().entries()) {
  describe(`mempool from ZMQ announcements (${engine})`, () => {
    it(`takes ${AT_START} txs found at start in two passes, then ${BURST} arriving one by one from the announcements, in order`, async () => {
      // Each engine spends coins of its own; the mempool the other left is mined first.
      while ((await node.rpc.call<{ size: number }>('getmempoolinfo')).size > 0) await node.mine(1, maker.address);
      const mine = coins.slice(round * (AT_START + BURST), (round + 1) * (AT_START + BURST));
      const txs = mine.map((coin) => maker.pay(coin, freshScript(), 1_000n));
      const hex = (i: number): string => Buffer.from(txs[i]!.raw).toString('hex');
      await sendAll(node, txs.slice(0, AT_START).map((_, i) => hex(i)));

      const test = await engines.create(engine);
      const store = test.store.network(params.id);
      const writes = countingCalls(store, 'addMempoolTxs');
      const source = new RpcChainSource(node.node);
      const lists = countingCalls(source, 'getMempoolTxidList');
      const fetches = countingCalls(lists.proxy, 'getRawTransactions');
      const tips = countingCalls(fetches.proxy, 'getBlockCount');
      const bus = new MemoryEventBus();
      const accepted: string[] = [];
      bus.subscribe((event) => {
        if (event.kind === 'tx_accepted') accepted.push(event.tx.txid);
      });
      const indexer = new NetworkIndexer({ params, source: tips.proxy, store: writes.proxy, bus, logger: silentLogger });
      // No periodic safety net here: every list read below is one the announcements did not make unnecessary.
      const notifier = new ZmqNotifier(node.node, { sequence: node.zmqUrl!, reconcileMs: 0 });
      notifier.on('tip', () => indexer.poke());
      notifier.on('mempool', () => indexer.mempoolChanged());
      notifier.on('announce', ({ txid, entered }) => indexer.announceTx(txid, entered));
      indexer.start();
      await notifier.start();
      try {
        await waitFor(async () => (await store.getMempoolInfo()).count === AT_START, 120_000, `${AT_START} txs at start stored`);
        // Published in slices, the event loop turning between them: the last slice may still be on its way.
        await waitFor(() => accepted.length === AT_START, 60_000, `${AT_START} txs at start published`);
        assert.equal(lists.calls(), 2, 'a read of the node list for each pass of at most 5,000 txs');
        assert.equal(fetches.calls(), AT_START / 500, 'fetched 500 a request');
        assert.equal(writes.calls(), AT_START / 250, 'stored 250 a write');
        assert.equal(accepted.length, AT_START);

        const tipsBefore = tips.calls();
        const burstStarted = Date.now();
        for (let i = AT_START; i < AT_START + BURST; i++) await node.rpc.call('sendrawtransaction', [hex(i)]);
        await waitFor(() => accepted.length >= AT_START + BURST, 120_000, `${BURST} more txs published`);
        const burst = txs.slice(AT_START).map((tx) => tx.txid);
        assert.deepEqual(accepted.slice(AT_START), burst, 'each tx published once, in the order the node accepted them');
        assert.ok(lists.calls() <= 3, `${lists.calls()} reads of the node's list: once more to trust the announcements, not once per pass`);
        assert.ok(fetches.calls() <= AT_START / 500 + BURST, `${fetches.calls()} fetches: none twice`);
        // Passes for announcements alone skip the block part: the node's block count is asked at a tip signal, the pass
        // that makes the announcements trusted and the idle resync (every 5 s), not at every pass.
        const burstSeconds = (Date.now() - burstStarted) / 1000;
        assert.ok(tips.calls() - tipsBefore <= 3 + burstSeconds / 5, `${tips.calls() - tipsBefore} block counts asked in ${burstSeconds.toFixed(1)} s`);
        await assertTipAndMempoolMatchNode(node, store, engine);
        assert.equal(accepted.length, new Set(accepted).size, 'no tx published twice');
      } finally {
        await notifier.stop();
        await indexer.stop();
      }
    });
  });
}
