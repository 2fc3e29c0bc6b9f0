/**
 * ZmqNotifier on Dogecoin Core 1.14's topics (hashblock + hashtx, no `sequence`) against the stand-in, in both
 * readings of which txs 1.14 announces: additions and new tips come from ZMQ; what ZMQ never says (a tx replaced
 * or evicted, a tip moved back by invalidateblock) comes from the reconcile poll within about a second.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toHex } from '../chains/hash.js';
import { NotifierRecorder } from '../../test/helpers/notifier-recorder.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../../test/helpers/dogecoin/dogecoin-standin.js';
import { ZmqNotifier } from './zmq-notifier.js';

for (const syncOnRemoval of [false, true]) {
  describe(`ZmqNotifier on hashblock/hashtx (Dogecoin Core 1.14${syncOnRemoval ? ', hashtx also for removals' : ''})`, () => {
    let node: DogecoinStandIn;
    let notifier: ZmqNotifier;
    let recorder: NotifierRecorder;

    before(async () => {
      node = await startDogecoinStandIn({ funded: true, syncOnRemoval });
      notifier = new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl!, reconcileMs: 250 });
      recorder = new NotifierRecorder(notifier);
      await notifier.start();
    });
    after(async () => {
      await notifier?.stop();
      await node?.stop();
    });

    test('a new block and a new tx are pushed, a confirmed tx is reported removed', async () => {
      const txid = await node.send(node.wallet.newAddress(), '10');
      await recorder.added(txid, 2_000);
      const [hash] = await node.mine(1);
      await recorder.tipReported(hash!, 2_000);
      await recorder.removed(txid, 2_000);
      assert.equal(notifier.tip, hash);
    });

    test('a replaced tx and an evicted tx (no ZMQ message for either) are found by the reconcile poll', async () => {
      const w = node.wallet;
      const coin = w.unspent().find((c) => c.confirmed)!;
      const first = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0, fee: 1_000_000n });
      await node.rpc.call('sendrawtransaction', [toHex(first.raw)]);
      await recorder.added(first.txid, 2_000);
      const second = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0, fee: 5_000_000n });
      await node.rpc.call('sendrawtransaction', [toHex(second.raw)]);
      await recorder.added(second.txid, 2_000);
      await recorder.removed(first.txid, 3_000);
      const evicted = await node.send(w.newAddress(), '1');
      await recorder.added(evicted, 2_000);
      node.core.evict(evicted);
      await recorder.removed(evicted, 3_000);
      assert.ok(!notifier.mempool.has(evicted) && notifier.mempool.has(second.txid));
    });

    test('a tip moved back (invalidateblock: no hashblock) is found by the poll, and its txs return', async () => {
      const txid = await node.send(node.wallet.newAddress(), '2');
      const [hash] = await node.mine(1);
      await recorder.tipReported(hash!, 2_000);
      await node.rpc.call('invalidateblock', [hash]);
      const back = await node.rpc.call<string>('getbestblockhash');
      await recorder.tipReported(back, 3_000);
      await recorder.added(txid, 3_000);
      await node.rpc.call('reconsiderblock', [hash]);
      await recorder.tipReported(hash!, 3_000);
    });

    test('catches up after the node restarts (new ZMQ sockets, counters from 0)', async () => {
      await node.halt();
      await node.resume();
      const [hash] = await node.mine(1);
      await recorder.tipReported(hash!, 5_000);
      const txid = await node.send(node.wallet.newAddress(), '1');
      await recorder.added(txid, 5_000);
    });
  });
}

describe('ZmqNotifier on hashblock/hashtx with its defaults', () => {
  test('polls once a second for what ZMQ does not say, cheaply: no txid list while tip and size agree', async () => {
    const node = await startDogecoinStandIn({ funded: true });
    const notifier = new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl! });
    const recorder = new NotifierRecorder(notifier);
    try {
      await notifier.start();
      const evicted = await node.send(node.wallet.newAddress(), '1');
      await recorder.added(evicted, 2_000);
      const before = { info: node.calls.get('getmempoolinfo') ?? 0, list: node.calls.get('getrawmempool') ?? 0 };
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      const idle = { info: (node.calls.get('getmempoolinfo') ?? 0) - before.info, list: (node.calls.get('getrawmempool') ?? 0) - before.list };
      assert.ok(idle.info >= 2 && idle.info <= 4, `${idle.info} polls in 3.2 s`);
      assert.equal(idle.list, 0, 'no getrawmempool while nothing changed');
      const t0 = Date.now();
      node.core.evict(evicted);
      await recorder.removed(evicted, 2_500);
      assert.ok(Date.now() - t0 < 2_500);
    } finally {
      await notifier.stop();
      await node.stop();
    }
  });
});
