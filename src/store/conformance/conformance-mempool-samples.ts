/** Conformance: mempool samples sum exactly the live mempool txs (what get_info counts), read back by time, prune by age. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ChainBuilder, p2pkh, spend } from './block-builder.js';
import { withDb } from './conformance-chain.js';
import type { StoreHarness } from './harness.js';

const T = 1_700_000_000;

export function mempoolSampleTests(harness: StoreHarness): void {
  it('a sample sums the live mempool (count, bytes, vbytes, fees) as getMempoolInfo does; one per second; per network', () => withDb(harness, async (db) => {
    const net = db.store.network('LTC');
    const samples = db.store.mempoolSamples();
    assert.deepEqual(await samples.sample('LTC', T), { time: T, txCount: 0, bytes: 0, vbytes: 0, fees: 0n }, 'an empty mempool is a sample too');
    const chain = new ChainBuilder();
    const alice = p2pkh(1);
    const b0 = chain.add(alice, 100_000n);
    await net.connectBlocks([b0]);
    const parent = spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(2), value: 60_000n }, { script: alice, value: 39_000n }]);
    const child = spend([{ txid: parent.txid, vout: 0 }], [{ script: p2pkh(3), value: 59_500n }]);
    await net.addMempoolTxs([{ tx: parent, seenAt: T }, { tx: child, seenAt: T }]);
    const info = await net.getMempoolInfo();
    const taken = await samples.sample('LTC', T + 60);
    assert.deepEqual(taken, { time: T + 60, txCount: 2, bytes: info.bytes, vbytes: info.vbytes, fees: 1_000n + 500n });
    assert.equal(await samples.sample('LTC', T + 60), null, 'a second sample in the same second is ignored');
    // A removed (replaced) tx is not live: the next sample leaves it out, as get_info does.
    await net.removeMempoolTxs([child.txid], 'replaced');
    assert.equal((await samples.sample('LTC', T + 120))?.txCount, (await net.getMempoolInfo()).count);
    assert.equal((await samples.sample('LTC', T + 120))?.fees ?? 1_000n, 1_000n);
    assert.deepEqual((await samples.read('LTC', T + 60, T + 120)).map((s) => [s.time, s.txCount, s.fees]), [[T + 60, 2, 1_500n], [T + 120, 1, 1_000n]]);
    assert.deepEqual(await samples.read('DOGE', 0, T * 2), [], 'samples are per network');
    assert.equal((await samples.sample('DOGE', T + 60))?.txCount, 0);
  }));

  it('reads a time window oldest first and prunes by age', () => withDb(harness, async (db) => {
    const samples = db.store.mempoolSamples();
    for (let i = 0; i < 10; i++) await samples.sample('LTCTEST', T + i * 60);
    await samples.sample('BTC', T);
    assert.deepEqual((await samples.read('LTCTEST', T + 120, T + 300)).map((s) => s.time), [T + 120, T + 180, T + 240, T + 300]);
    assert.equal(await samples.prune('LTCTEST', T + 300), 5);
    assert.deepEqual((await samples.read('LTCTEST', 0, T * 2)).map((s) => s.time), [T + 300, T + 360, T + 420, T + 480, T + 540]);
    assert.equal((await samples.read('BTC', 0, T * 2)).length, 1, 'another network keeps its samples');
    assert.equal(await samples.prune('LTCTEST', T + 300), 0);
  }));
}
