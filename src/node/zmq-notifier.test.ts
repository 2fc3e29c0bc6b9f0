import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { NotifierRecorder } from '../../test/helpers/notifier-recorder.js';
import { startBitcoind, type RegtestNode } from '../../test/helpers/regtest-node.js';
import { NodeClient } from './node-client.js';
import type { RpcClient } from './rpc-client.js';
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
    notifier = new ZmqNotifier(client, { ...endpoints, reconcileMs: 1_000 });
    recorder = new NotifierRecorder(notifier);
    await notifier.start();
  });
  after(async () => {
    await notifier?.stop();
    await node?.stop();
  });

  test('starts from the current tip without reporting it', async () => {
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
    await delay(200);
    assert.equal(recorder.tips.length, 0);
  });

  test('a mined block is reported within 1 s', async (t) => {
    const t0 = Date.now();
    const [hash] = await node.mine(1);
    const latency = (await recorder.tipReported(hash!)) - t0;
    t.diagnostic(`tip latency ${latency} ms (includes the generatetoaddress call)`);
    assert.ok(latency < 1_000, `${latency} ms`);
  });

  test('a sent tx is reported as added, then as removed once confirmed', async (t) => {
    const t0 = Date.now();
    const txid = await node.send(await node.newAddress('bech32m'), '0.1');
    const addLatency = (await recorder.added(txid)) - t0;
    const t1 = Date.now();
    const [hash] = await node.mine(1);
    const removedAt = await recorder.removed(txid);
    const tipAt = await recorder.tipReported(hash!);
    t.diagnostic(`mempool add latency ${addLatency} ms (includes sendtoaddress), removal ${removedAt - t1} ms`);
    assert.ok(addLatency < 1_000 && removedAt - t1 < 1_000);
    assert.ok(tipAt <= removedAt);
    assert.ok(!notifier.mempool.has(txid));
  });

  test('a reorg reports the new tip and returns the disconnected txs to the mempool', async () => {
    const txid = await node.send(await node.newAddress('bech32'), '0.2');
    const [confirming] = await node.mine(1);
    await recorder.removed(txid);
    await node.rpc.call('invalidateblock', [confirming]);
    await recorder.added(txid);
    const [replacement] = await node.mine(2); // to a new address: not the same block again
    await recorder.tipReported((await node.node.getBestBlockHash()) as string);
    assert.notEqual(replacement, confirming);
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
  });

  test('catches up after the node restarts (reconnect + reconcile)', async () => {
    await node.halt();
    await node.resume();
    const [hash] = await node.mine(1);
    await recorder.tipReported(hash!, 5_000);
    const txid = await node.send(await node.newAddress('legacy'), '0.1');
    await recorder.added(txid, 5_000);
  });

  test('stop() ends the socket loop: no more events', async () => {
    await notifier.stop();
    const before = recorder.tips.length;
    await node.mine(1);
    await delay(300);
    assert.equal(recorder.tips.length, before);
  });
});
