/**
 * Conformance: an initial (bulk) load answers exactly like the same blocks connected one batch at a time, then
 * follows the chain incrementally (connect, disconnect, mempool) like any index; a build interrupted at any step
 * resumes to the same result.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import type { NetworkStore } from '../../../core/store/network-store.js';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import type { StoreHarness, TestDatabase } from '../harness.js';

/**
 * A chain with every shape the load must get right: coinbases paying reused scripts, spends of outputs from earlier
 * batches (pending) and from the same batch, several inputs and outputs, Dogecoin-size values (totals beyond 2^63).
 */
export function sampleChain(): { chain: ChainBuilder; scripts: Uint8Array[] } {
  const scripts = Array.from({ length: 12 }, (_, i) => p2pkh(500 + i));
  const chain = new ChainBuilder();
  const big = 4_000_000_000_000_000_000n;
  const unspent: { txid: string; vout: number; value: bigint }[] = [];
  for (let h = 0; h < 30; h++) {
    const txs = [];
    // Spend the two oldest unspent outputs (often from earlier batches) and, every third block, one created just now.
    for (let k = 0; k < 2 && unspent.length > 2; k++) {
      const a = unspent.shift()!;
      const b = unspent.shift()!;
      const total = a.value + b.value;
      const tx = spend([a, b], [{ script: scripts[(h + k) % 12]!, value: total / 3n }, { script: scripts[(h * 7 + k) % 12]!, value: total / 3n }]);
      txs.push(tx);
      unspent.push({ txid: tx.txid, vout: 0, value: total / 3n }, { txid: tx.txid, vout: 1, value: total / 3n });
    }
    if (h % 3 === 2 && txs.length > 0) {
      const last = unspent.pop()!;
      const child = spend([last], [{ script: scripts[h % 12]!, value: last.value - 1000n }]);
      txs.push(child);
      unspent.push({ txid: child.txid, vout: 0, value: child.outputs[0]!.value });
    }
    const added = h % 5 === 0 ? chain.add(scripts[0]!, big, txs) : chain.add(scripts[h % 12]!, 5_000_000_000n, txs);
    unspent.push({ txid: added.block.txs[0]!.txid, vout: 0, value: added.block.txs[0]!.outputs[0]!.value });
  }
  return { chain, scripts };
}

export async function bulkLoad(net: NetworkStore, blocks: readonly BlockToConnect[], batch: number, rawTxs?: RawTxSource): Promise<void> {
  await net.beginBulkLoad(1);
  for (let i = 0; i < blocks.length; i += batch) await net.loadBlocks(blocks.slice(i, i + batch));
  await net.finishBulkLoad(undefined, rawTxs);
}

/** Everything the API reads of these scripts, txs and blocks (`noRaw`: with every confirmed tx's raw bytes left out). */
export async function answers(net: NetworkStore, scripts: readonly Uint8Array[], blocks: readonly BlockToConnect[], noRaw = false): Promise<string> {
  const out: unknown[] = [];
  for (const s of scripts) {
    out.push(await net.getAddressTotals(s), await net.getAddressTotals(s, { minConfirmations: 4 }));
    out.push(await net.getAddressHistory(s, { limit: 1000, direction: 'asc' }), await net.getAddressHistory(s, { limit: 3, direction: 'desc', kind: 'spent' }));
    out.push(await net.getUnspent(s, { limit: 1000, includeMempool: true }));
  }
  for (const { block } of blocks) {
    const record = await net.getBlockByHash(block.header.hash);
    out.push(record);
    for (const tx of block.txs) {
      const record = await net.getTransaction(tx.txid);
      out.push(noRaw && record?.status === 'confirmed' ? { ...record, raw: null } : record, await net.getOutputs(tx.txid));
    }
  }
  out.push(await net.getTip());
  return JSON.stringify(out, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
}

async function withTwo(harness: StoreHarness, fn: (a: TestDatabase, b: TestDatabase) => Promise<void>, keyBits?: number): Promise<void> {
  const a = await harness.create(keyBits ? { scriptKeyBits: keyBits } : {});
  const b = await harness.create(keyBits ? { scriptKeyBits: keyBits } : {});
  try {
    await a.store.migrate();
    await b.store.migrate();
    await fn(a, b);
  } finally {
    await a.dispose();
    await b.dispose();
  }
}

export function bulkTests(harness: StoreHarness): void {
  for (const [label, keyBits] of [['', undefined], [' (colliding script keys)', 2]] as const) {
    it(`a bulk load answers like incremental connects, then follows the chain${label}`, () => withTwo(harness, async (a, b) => {
      const { chain, scripts } = sampleChain();
      const incremental = a.store.network('DOGE');
      const bulk = b.store.network('DOGE');
      for (let i = 0; i < chain.blocks.length; i += 4) await incremental.connectBlocks(chain.blocks.slice(i, i + 4));
      assert.equal(await bulk.getBulkLoad(), null);
      await bulkLoad(bulk, chain.blocks, 7);
      assert.equal(await bulk.getBulkLoad(), null, 'finished');
      const totals = await bulk.getAddressTotals(scripts[0]!);
      assert.ok(totals.confirmedReceived > 2n ** 63n, 'sums beyond 2^63 in the sample');
      assert.equal(await answers(bulk, scripts, chain.blocks), await answers(incremental, scripts, chain.blocks));

      // Then both follow the chain: a block spending bulk-loaded outputs, a reorg, the mempool.
      const pay = spend([{ txid: chain.blocks.at(-1)!.block.txs[0]!.txid, vout: 0 }], [{ script: scripts[1]!, value: 7n }]);
      const next = chain.add(scripts[2]!, 50n, [pay]);
      for (const net of [incremental, bulk]) {
        await net.connectBlocks([next]);
        await net.disconnectTip(next.block.header.hash);
        assert.equal((await net.addMempoolTxs([{ tx: pay, seenAt: 9 }]))[0]!.status, 'added');
        await net.connectBlocks([next]);
      }
      assert.equal(await answers(bulk, scripts, chain.blocks), await answers(incremental, scripts, chain.blocks));
    }, keyBits));
  }

  it('a build interrupted at any step resumes to the same result', () => withTwo(harness, async (a, b) => {
    const { chain, scripts } = sampleChain();
    await bulkLoad(a.store.network('LTC'), chain.blocks, 10);
    const expected = await answers(a.store.network('LTC'), scripts, chain.blocks);
    let net = b.store.network('LTC');
    await net.beginBulkLoad(1);
    for (let i = 0; i < chain.blocks.length; i += 10) await net.loadBlocks(chain.blocks.slice(i, i + 10));
    let steps = 0;
    for (let stop = 1; ; stop++) {
      // Fails as step `stop` is about to run: every earlier step is committed, this one never started.
      const failed = await net.finishBulkLoad((s) => {
        steps = s.steps;
        if (s.step === stop) throw new Error('killed');
      }).then(() => false, () => true);
      if (!failed) break;
      assert.equal((await net.getBulkLoad())?.step, stop - 1);
      net = (await b.reopen()).network('LTC');
    }
    assert.ok(steps >= 5, 'several build steps were interrupted');
    assert.equal(await net.getBulkLoad(), null);
    assert.equal(await answers(net, scripts, chain.blocks), expected);
  }));

  it('a bulk load needs an empty index; resetChain empties one', () => withTwo(harness, async (a) => {
    const net = a.store.network('BTC');
    const chain = new ChainBuilder();
    const b0 = chain.add(p2pkh(1), 50n);
    await net.connectBlocks([b0]);
    await net.addMempoolTxs([{ tx: spend([{ txid: b0.block.txs[0]!.txid, vout: 0 }], [{ script: p2pkh(2), value: 49n }]), seenAt: 1 }]);
    assert.equal((await net.getMempoolInfo()).count, 1);
    await assert.rejects(net.beginBulkLoad(1), /empty chain index/);
    await net.resetChain();
    assert.equal(await net.getTip(), null);
    assert.deepEqual(await net.getMempoolInfo(), { count: 0, bytes: 0, vbytes: 0 }, 'the mempool goes with the chain, its sums too');
    await bulkLoad(net, chain.blocks, 1);
    assert.equal((await net.getAddressTotals(p2pkh(1))).confirmedReceived, 50n);
  }));
}
