import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { NotifierRecorder } from '../../../test/helpers/notifier-recorder.js';
import { startBitcoind, type RegtestNode } from '../../../test/helpers/regtest-node.js';
import { NodeClient } from '../rpc/node-client.js';
import type { RpcClient } from '../rpc/rpc-client.js';
import { ZmqNotifier, zmqEndpointsFromNode } from './zmq-notifier.js';

describe('ZmqNotifier against bitcoind -regtest', () => {
  let node: RegtestNode;
  let rpc: RpcClient;
  let notifier: ZmqNotifier;
  let recorder: NotifierRecorder;

  before(async () => {
    node = await startBitcoind({ funded: true });
    rpc = node.client({ url: node.rpcUrl, retries: 0, timeoutMs: 2_000 });
    const client = new NodeClient(rpc);
    const endpoints = await zmqEndpointsFromNode(client);
    assert.ok(endpoints, 'bitcoind answers getzmqnotifications');
    assert.equal(endpoints.sequence, node.zmqUrl);
    // No periodic reconcile during these tests: every signal below comes from a ZMQ message or a reconnect.
    notifier = new ZmqNotifier(client, { ...endpoints, reconcileMs: 600_000 });
    recorder = new NotifierRecorder(notifier);
    await notifier.start();
  });
  after(async () => {
    await notifier?.stop();
    await node?.stop();
  });

  test('starts from the current tip without signalling anything', async () => {
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
    await delay(300);
    assert.deepEqual(recorder.since(0), { tips: 0, mempool: 0 });
    assert.equal(recorder.announcedSince(0), 0);
  });

  test('a mined block is reported within 1 s', async (t) => {
    const t0 = Date.now();
    const [hash] = await node.mine(1);
    const latency = (await recorder.tipReported(hash!)) - t0;
    t.diagnostic(`tip latency ${latency} ms (includes the generatetoaddress call)`);
    assert.ok(latency < 1_000, `${latency} ms`);
  });

  test('a sent tx is announced with its txid within 1 s (A), its block as the new tip within 1 s (C), no mempool signal', async (t) => {
    await recorder.settled(300);
    const t0 = Date.now();
    const txid = await node.send(await node.newAddress('bech32m'), '0.1');
    const addLatency = (await recorder.announced(txid)) - t0;
    assert.ok((await node.node.getRawMempool()).includes(txid));
    await recorder.settled(300);
    const t1 = Date.now();
    const [hash] = await node.mine(1);
    const tipLatency = (await recorder.tipReported(hash!)) - t1;
    t.diagnostic(`mempool signal latency ${addLatency} ms (includes sendtoaddress), tip ${tipLatency} ms`);
    assert.ok(addLatency < 1_000 && tipLatency < 1_000);
    assert.equal(recorder.since(t1).tips, 1);
    assert.equal(recorder.since(t0).mempool, 0, 'announcements need no diff of the whole mempool');
    assert.equal(notifier.tip, hash);
  });

  test('a replacement is announced as the old tx leaving (R) and the new one entering (A), in that order', async () => {
    await recorder.settled(300);
    const txid = await node.wallet.call<string>('sendtoaddress', [await node.newAddress('bech32'), '0.3', '', '', false, true]);
    await recorder.announced(txid);
    const { txid: bumped } = await node.wallet.call<{ txid: string }>('bumpfee', [txid]);
    const left = await recorder.announced(txid, false);
    const entered = await recorder.announced(bumped);
    assert.ok(left <= entered);
    const order = recorder.announcements.map((r) => `${r.event.entered ? 'A' : 'R'}${r.event.txid}`);
    assert.ok(order.indexOf(`R${txid}`) < order.indexOf(`A${bumped}`), order.join(' '));
    await node.mine(1);
  });

  test('a reorg signals the tip it went back to (D), the txs returning to the mempool, then the new tip', async () => {
    const txid = await node.send(await node.newAddress('bech32'), '0.2');
    const [confirming] = await node.mine(1);
    await recorder.tipReported(confirming!);
    await recorder.settled(300);
    const t0 = Date.now();
    await node.rpc.call('invalidateblock', [confirming]);
    const back = await node.node.getBestBlockHash();
    await recorder.tipReported(back, 1_000);
    await recorder.mempoolSignalled(t0, 1_000);
    assert.ok((await node.node.getRawMempool()).includes(txid), 'the node put the tx back');
    const [replacement] = await node.mine(2); // to a new address: not the same block again
    assert.notEqual(replacement, confirming);
    await recorder.tipReported((await node.node.getBestBlockHash()) as string);
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
  });

  test('the reconcile signals the mempool every reconcileMs (what a lost message hid), a tip only when it moved', async () => {
    const reconciling = new ZmqNotifier(new NodeClient(rpc), { sequence: node.zmqUrl!, reconcileMs: 500 });
    const reconciled = new NotifierRecorder(reconciling);
    await reconciling.start();
    try {
      const t0 = Date.now();
      await delay(1_700);
      const seen = reconciled.since(t0);
      assert.ok(seen.mempool >= 2 && seen.mempool <= 4, `${seen.mempool} mempool signals in 1.7 s`);
      assert.equal(seen.tips, 0, 'an unchanged tip is not signalled');
      assert.equal(reconciled.errors.length, 0);
    } finally {
      await reconciling.stop();
    }
  });

  test('catches up after the node restarts (reconnect): a mempool signal for what it missed, then announcements again', async () => {
    const t0 = Date.now();
    await node.halt();
    await node.resume();
    // The reconnect itself makes the consumer read the whole mempool: messages may have been lost meanwhile.
    await recorder.mempoolSignalled(t0, 10_000);
    const [hash] = await node.mine(1);
    await recorder.tipReported(hash!, 5_000);
    // A subscription takes effect at the publisher a moment after the reconnect (what is published before is not
    // delivered, and the mempool signal above covers it): a tx sent later is announced.
    let announced = false;
    for (let i = 0; i < 10 && !announced; i++) {
      const txid = await node.send(await node.newAddress('legacy'), '0.1');
      announced = await recorder.announced(txid, true, 2_000).then(() => true, () => false);
    }
    assert.ok(announced, 'announcements flow again after the reconnect');
  });

  test('stop() ends the socket loop: no more signals', async () => {
    await notifier.stop();
    const atStop = recorder.since(0);
    await node.send(await node.newAddress('bech32'), '0.1');
    await node.mine(1);
    await delay(300);
    assert.deepEqual(recorder.since(0), atStop);
  });
});
