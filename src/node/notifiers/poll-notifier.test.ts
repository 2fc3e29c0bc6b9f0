import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { NotifierRecorder } from '../../../test/helpers/notifier-recorder.js';
import { startLitecoind, type RegtestNode } from '../../../test/helpers/regtest-node.js';
import { NodeClient } from '../rpc/node-client.js';
import { PollNotifier } from './poll-notifier.js';
import type { RpcClient } from '../rpc/rpc-client.js';

describe('PollNotifier against litecoind -regtest', () => {
  let node: RegtestNode;
  let rpc: RpcClient;
  let notifier: PollNotifier;
  let recorder: NotifierRecorder;

  before(async () => {
    node = await startLitecoind({ funded: true });
    rpc = node.client({ url: node.rpcUrl, retries: 0, timeoutMs: 2_000 });
    // No periodic mempool signal during these tests: every signal below comes from a change (see the idle test).
    notifier = new PollNotifier(new NodeClient(rpc), { pollMs: 250, fullMempoolEveryMs: 600_000 });
    recorder = new NotifierRecorder(notifier);
    await notifier.start();
  });
  after(async () => {
    await notifier?.stop();
    await node?.stop();
  });

  test('starts from the current tip and mempool fingerprint without signalling them', async () => {
    assert.equal(notifier.tip, await node.node.getBestBlockHash());
    await delay(600);
    assert.deepEqual(recorder.since(0), { tips: 0, mempool: 0 });
  });

  test('a mined block is reported within 1 s', async (t) => {
    const t0 = Date.now();
    const [hash] = await node.mine(1);
    const latency = (await recorder.tipReported(hash!)) - t0;
    t.diagnostic(`tip latency ${latency} ms (poll 250 ms)`);
    assert.ok(latency < 1_000, `${latency} ms`);
  });

  test('a sent tx is signalled as a mempool change, its block as a tip and a mempool change, each within 1 s', async (t) => {
    await recorder.settled(600);
    const t0 = Date.now();
    const txid = await node.send(await node.newAddress('bech32'), '0.1');
    const addLatency = (await recorder.mempoolSignalled(t0)) - t0;
    assert.deepEqual(await node.node.getRawMempool(), [txid]);
    await recorder.settled(600);
    const t1 = Date.now();
    const [hash] = await node.mine(1);
    const tipAt = await recorder.tipReported(hash!);
    const confirmedAt = await recorder.mempoolSignalled(t1);
    t.diagnostic(`mempool signal latency ${addLatency} ms, tip ${tipAt - t1} ms, confirmation ${confirmedAt - t1} ms`);
    assert.ok(addLatency < 1_000 && tipAt - t1 < 1_000 && confirmedAt - t1 < 1_000);
    assert.deepEqual(recorder.since(t1), { tips: 1, mempool: 1 }, 'one poll saw both: one signal each');
  });

  test('an idle node: no signal before fullMempoolEveryMs, then one mempool signal, never a tip', async () => {
    const idle = new PollNotifier(new NodeClient(rpc), { pollMs: 100, fullMempoolEveryMs: 2_000 });
    const idleRecorder = new NotifierRecorder(idle);
    const t0 = Date.now();
    await idle.start();
    try {
      await delay(1_400);
      assert.deepEqual(idleRecorder.since(0), { tips: 0, mempool: 0 }, 'fingerprint unchanged: ~13 polls, no signal');
      const periodic = await idleRecorder.mempoolSignalled(t0, 3_000);
      assert.ok(periodic - t0 >= 2_000, `the periodic signal ${periodic - t0} ms after start`);
      await delay(500);
      assert.deepEqual(idleRecorder.since(0), { tips: 0, mempool: 1 });
      assert.equal(idleRecorder.errors.length, 0);
    } finally {
      await idle.stop();
    }
  });

  test('survives a node crash: errors while down, events again after restart', async () => {
    await node.kill9();
    await delay(600);
    assert.ok(recorder.errors.length > 0, 'errors reported while the node is down');
    await node.resume();
    const [hash] = await node.mine(1);
    await recorder.tipReported(hash!, 5_000);
  });

  test('stop() leaves nothing running: no more signals', async () => {
    await notifier.stop();
    const atStop = recorder.since(0);
    await node.mine(1); // (no send: after the kill -9 the wallet may not know its coins yet)
    await delay(600);
    assert.deepEqual(recorder.since(0), atStop);
  });
});
