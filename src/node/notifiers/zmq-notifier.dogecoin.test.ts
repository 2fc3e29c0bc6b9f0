/**
 * ZmqNotifier on Dogecoin Core 1.14's topics (hashblock + hashtx, no `sequence`) against the stand-in, in both
 * readings of which txs 1.14 announces: new txs and new tips are signalled from ZMQ; what ZMQ never says (a tx
 * evicted, a tip moved back by invalidateblock) is signalled by the reconcile poll within about a second.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { toHex } from '../../chains/hash.js';
import { NotifierRecorder } from '../../../test/helpers/notifier-recorder.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../../../test/helpers/dogecoin/dogecoin-standin.js';
import { ZmqNotifier } from './zmq-notifier.js';

for (const syncOnRemoval of [false, true]) {
  describe(`ZmqNotifier on hashblock/hashtx (Dogecoin Core 1.14${syncOnRemoval ? ', hashtx also for removals' : ''})`, () => {
    let node: DogecoinStandIn;
    let notifier: ZmqNotifier;
    let recorder: NotifierRecorder;

    before(async () => {
      node = await startDogecoinStandIn({ funded: true, syncOnRemoval });
      // No periodic mempool signal: a signal below comes from ZMQ or from a fingerprint the reconcile saw move.
      notifier = new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl!, reconcileMs: 250, fullMempoolEveryMs: 600_000 });
      recorder = new NotifierRecorder(notifier);
      await notifier.start();
    });
    after(async () => {
      await notifier?.stop();
      await node?.stop();
    });

    test('a new tx is signalled by hashtx, a new block by hashblock with its hash (no reconcile poll)', async () => {
      const pushOnly = new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl!, reconcileMs: 0 });
      const pushed = new NotifierRecorder(pushOnly);
      await pushOnly.start();
      try {
        const t0 = Date.now();
        await node.send(node.wallet.newAddress(), '10');
        assert.ok((await pushed.mempoolSignalled(t0, 2_000)) - t0 < 2_000);
        const [hash] = await node.mine(1);
        await pushed.tipReported(hash!, 2_000);
        assert.equal(pushOnly.tip, hash);
        assert.equal(node.calls.get('getmempoolentry') ?? 0, 0, 'hashtx is a signal, not a look-up');
      } finally {
        await pushOnly.stop();
      }
    });

    test('a replacement is signalled by its hashtx; an eviction (no ZMQ message) by the reconcile poll within 1 s', async () => {
      const w = node.wallet;
      const coin = w.unspent().find((c) => c.confirmed)!;
      const first = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0, fee: 1_000_000n });
      await node.rpc.call('sendrawtransaction', [toHex(first.raw)]);
      const second = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0, fee: 5_000_000n });
      await recorder.settled(600);
      const t0 = Date.now();
      await node.rpc.call('sendrawtransaction', [toHex(second.raw)]);
      await recorder.mempoolSignalled(t0, 1_000);
      assert.deepEqual(await node.node.getRawMempool(), [second.txid], 'replaced: one tx for another, the size unchanged');
      const evicted = await node.send(w.newAddress(), '1');
      await recorder.settled(600); // the reconcile has seen the fingerprint with `evicted`
      const t1 = Date.now();
      node.core.evict(evicted);
      const latency = (await recorder.mempoolSignalled(t1, 1_000)) - t1;
      assert.ok(latency < 1_000, `${latency} ms`);
      assert.equal(recorder.since(t1).tips, 0);
    });

    test('a tip moved back (invalidateblock: no hashblock) is found by the poll, with the mempool its txs return to', async () => {
      const txid = await node.send(node.wallet.newAddress(), '2');
      const [hash] = await node.mine(1);
      await recorder.tipReported(hash!, 2_000);
      await recorder.settled(600);
      const t0 = Date.now();
      await node.rpc.call('invalidateblock', [hash]);
      const back = await node.rpc.call<string>('getbestblockhash');
      await recorder.tipReported(back, 1_000, t0);
      await recorder.mempoolSignalled(t0, 1_000);
      assert.ok((await node.node.getRawMempool()).includes(txid), 'the tx is back in the node\'s mempool');
      // Reported again, after it was given up: a report from before invalidateblock does not count.
      const t1 = Date.now();
      await node.rpc.call('reconsiderblock', [hash]);
      await recorder.tipReported(hash!, 3_000, t1);
      assert.equal(notifier.tip, hash);
    });

    test('catches up after the node restarts (new ZMQ sockets, counters from 0)', async () => {
      await node.halt();
      await node.resume();
      const [hash] = await node.mine(1);
      await recorder.tipReported(hash!, 5_000);
      const t0 = Date.now();
      await node.send(node.wallet.newAddress(), '1');
      await recorder.mempoolSignalled(t0, 5_000);
    });
  });
}

describe('ZmqNotifier on hashblock/hashtx with its defaults', () => {
  test('polls once a second for what ZMQ does not say, cheaply: no signal and no txid list while nothing changes', async () => {
    const node = await startDogecoinStandIn({ funded: true });
    const notifier = new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl! });
    const recorder = new NotifierRecorder(notifier);
    try {
      await notifier.start();
      const t = Date.now();
      const evicted = await node.send(node.wallet.newAddress(), '1');
      await recorder.mempoolSignalled(t, 2_000);
      await recorder.settled(1_500); // a reconcile poll has seen the mempool with `evicted`
      const before = { info: node.calls.get('getmempoolinfo') ?? 0, list: node.calls.get('getrawmempool') ?? 0 };
      const idleFrom = Date.now();
      await delay(3_200);
      const idle = { info: (node.calls.get('getmempoolinfo') ?? 0) - before.info, list: (node.calls.get('getrawmempool') ?? 0) - before.list };
      assert.ok(idle.info >= 2 && idle.info <= 4, `${idle.info} polls in 3.2 s`);
      assert.equal(idle.list, 0, 'no getrawmempool: the notifier never reads the txid list');
      assert.deepEqual(recorder.since(idleFrom), { tips: 0, mempool: 0 }, 'no signal while nothing changes');
      const t0 = Date.now();
      node.core.evict(evicted);
      const latency = (await recorder.mempoolSignalled(t0, 2_500)) - t0;
      assert.ok(latency < 2_500, `${latency} ms`);
      assert.equal(node.calls.get('getmempoolentry') ?? 0, 0);
    } finally {
      await notifier.stop();
      await node.stop();
    }
  });
});
