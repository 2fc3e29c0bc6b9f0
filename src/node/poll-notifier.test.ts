import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { NotifierRecorder } from '../../test/helpers/notifier-recorder.js';
import { startLitecoind, type RegtestNode } from '../../test/helpers/regtest-node.js';
import { NodeClient } from './node-client.js';
import { PollNotifier } from './poll-notifier.js';
import type { RpcClient } from './rpc-client.js';

describe('PollNotifier against litecoind -regtest', () => {
  let node: RegtestNode;
  let rpc: RpcClient;
  let notifier: PollNotifier;
  let recorder: NotifierRecorder;

  before(async () => {
    node = await startLitecoind({ funded: true });
    rpc = node.client({ url: node.rpcUrl, retries: 0, timeoutMs: 2_000 });
    notifier = new PollNotifier(new NodeClient(rpc), { pollMs: 250 });
    recorder = new NotifierRecorder(notifier);
    await notifier.start();
  });
  after(async () => {
    await notifier?.stop();
    await node?.stop();
  });

  test('starts from the current tip without reporting it', async () => {
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
    await delay(300);
    assert.equal(recorder.tips.length, 0);
  });

  test('a mined block is reported within 1 s', async (t) => {
    const t0 = Date.now();
    const [hash] = await node.mine(1);
    const latency = (await recorder.tipReported(hash!)) - t0;
    t.diagnostic(`tip latency ${latency} ms (poll 250 ms)`);
    assert.ok(latency < 1_000, `${latency} ms`);
  });

  test('a sent tx is reported as added, then as removed once confirmed', async (t) => {
    const t0 = Date.now();
    const txid = await node.send(await node.newAddress('bech32'), '0.1');
    const addLatency = (await recorder.added(txid)) - t0;
    assert.ok(notifier.mempool.has(txid));
    const t1 = Date.now();
    const [hash] = await node.mine(1);
    const removedAt = await recorder.removed(txid);
    const tipAt = await recorder.tipReported(hash!);
    t.diagnostic(`mempool add latency ${addLatency} ms, removal ${removedAt - t1} ms`);
    assert.ok(addLatency < 1_000 && removedAt - t1 < 1_000);
    assert.ok(tipAt <= removedAt, 'the tip is reported before the txs it confirmed leave');
    assert.ok(!notifier.mempool.has(txid));
  });

  test('survives a node crash: errors while down, events again after restart', async () => {
    await node.kill9();
    await delay(600);
    assert.ok(recorder.errors.length > 0, 'errors reported while the node is down');
    await node.resume();
    const [hash] = await node.mine(1);
    await recorder.tipReported(hash!, 5_000);
  });

  test('stop() leaves nothing running: no more events', async () => {
    await notifier.stop();
    const before = recorder.tips.length;
    await node.mine(1);
    await delay(600);
    assert.equal(recorder.tips.length, before);
  });
});
