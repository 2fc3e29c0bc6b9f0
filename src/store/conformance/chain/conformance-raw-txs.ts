/**
 * Conformance: with raw_txs = "node" no confirmed tx's raw bytes are written (incremental connects, bulk loads, blocks
 * connected again), while everything derived from them answers exactly as with "store"; mempool txs keep theirs; a
 * bulk build with colliding script keys reads the few raw txs it needs from the source it is given; applyRawTxMode
 * deletes stored raw txs on a switch to "node".
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RawTxLocation, RawTxSource } from '../../../core/sources/raw-txs.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { ChainBuilder, p2pkh, spend } from '../block-builder.js';
import { answers, bulkLoad, sampleChain } from './conformance-bulk.js';
import type { StoreHarness, StoreOptions, TestDatabase } from '../harness.js';

/** A source answering from the test's own blocks, checking each location; counts the txs asked for. */
function blocksSource(blocks: readonly BlockToConnect[]): RawTxSource & { asked: RawTxLocation[] } {
  const byBlock = new Map(blocks.map(({ block }) => [block.header.hash, block.txs]));
  const asked: RawTxLocation[] = [];
  return {
    asked,
    rawTxs: (locations) => {
      asked.push(...locations);
      return Promise.resolve(locations.map((l) => {
        const tx = byBlock.get(l.blockHash)?.[l.position];
        assert.equal(tx?.txid, l.txid, 'the store names the tx by its block and position');
        return tx.raw;
      }));
    },
  };
}

async function withStores(harness: StoreHarness, options: StoreOptions, fn: (store: TestDatabase, node: TestDatabase) => Promise<void>): Promise<void> {
  const store = await harness.create({ ...options, rawTxs: 'store' });
  const node = await harness.create({ ...options, rawTxs: 'node' });
  try {
    await store.store.migrate();
    await node.store.migrate();
    await fn(store, node);
  } finally {
    await store.dispose();
    await node.dispose();
  }
}

const rawRows = async (db: TestDatabase, table: string): Promise<number> => (await db.dump())[table]?.length ?? -1;

export function rawTxTests(harness: StoreHarness): void {
  it('raw_txs = "node": connects, reorgs and the mempool answer like "store" without storing confirmed raw txs', () => withStores(harness, {}, async (a, b) => {
    const { chain, scripts } = sampleChain();
    const pay = spend([{ txid: chain.blocks.at(-1)!.block.txs[0]!.txid, vout: 0 }], [{ script: scripts[3]!, value: 9n }]);
    const next = chain.add(scripts[2]!, 50n, [pay]);
    for (const db of [a, b]) {
      const net = db.store.network('LTC');
      for (let i = 0; i < chain.blocks.length - 1; i += 4) await net.connectBlocks(chain.blocks.slice(i, Math.min(i + 4, chain.blocks.length - 1)));
      assert.equal((await net.addMempoolTxs([{ tx: pay, seenAt: 9 }]))[0]!.status, 'added');
      const unconfirmed = await net.getTransaction(pay.txid);
      assert.deepEqual(Buffer.from(unconfirmed!.raw!), Buffer.from(pay.raw), 'a mempool tx keeps its raw bytes in both modes');
      await net.connectBlocks([next]);
      const disconnected = await net.disconnectTip(next.block.header.hash);
      assert.equal(disconnected.txs[1]!.raw === null, db === b, 'a disconnected tx has raw bytes only when stored');
      const orphaned = await net.getTransaction(pay.txid);
      assert.equal(orphaned?.status, 'orphaned');
      assert.deepEqual([orphaned?.blockHash, orphaned?.position], [next.block.header.hash, 1], 'an orphaned tx is found in its block');
      await net.connectBlocks([next]);
    }
    assert.equal(await answers(b.store.network('LTC'), scripts, chain.blocks, true), await answers(a.store.network('LTC'), scripts, chain.blocks, true));
    const confirmed = await b.store.network('LTC').getTransaction(pay.txid);
    assert.equal(confirmed?.raw, null);
    assert.deepEqual([confirmed?.blockHash, confirmed?.position], [next.block.header.hash, 1]);
    assert.equal(await rawRows(b, 'tx_raws_ltc'), 0);
    assert.equal(await rawRows(a, 'tx_raws_ltc'), chain.blocks.reduce((n, x) => n + x.block.txs.length, 0));
  }));

  for (const [label, keyBits] of [['', undefined], [' and colliding script keys (read from the source)', 2]] as const) {
    it(`raw_txs = "node": a bulk load stores no raw txs and answers like "store"${label}`, () => withStores(harness, keyBits ? { scriptKeyBits: keyBits } : {}, async (a, b) => {
      const { chain, scripts } = sampleChain();
      const source = blocksSource(chain.blocks);
      await bulkLoad(a.store.network('DOGE'), chain.blocks, 7);
      await bulkLoad(b.store.network('DOGE'), chain.blocks, 7, source);
      assert.equal(await rawRows(b, 'tx_raws_doge'), 0);
      assert.equal(await answers(b.store.network('DOGE'), scripts, chain.blocks, true), await answers(a.store.network('DOGE'), scripts, chain.blocks, true));
      assert.equal(source.asked.length > 0, keyBits !== undefined, 'raw txs are asked for only when script keys collide');
    }));
  }

  it('raw_txs = "node": a build that needs raw txs and has no source fails before changing anything', () => withStores(harness, { scriptKeyBits: 2 }, async (_a, b) => {
    const { chain } = sampleChain();
    const net = b.store.network('BTC');
    await assert.rejects(bulkLoad(net, chain.blocks, 10), /colliding script keys need the raw tx/);
    const step = (await net.getBulkLoad())?.step;
    await net.finishBulkLoad(undefined, blocksSource(chain.blocks));
    assert.ok(step !== undefined && step > 0, 'the steps before were kept');
    assert.equal(await net.getBulkLoad(), null, 'resumed with a source, the build finishes');
  }));

  it('applyRawTxMode: switching to "node" deletes the stored raw txs of every network, and records the mode', () => withStores(harness, {}, async (a) => {
    const chain = new ChainBuilder();
    await a.store.network('LTC').connectBlocks([chain.add(p2pkh(1), 50n), chain.add(p2pkh(2), 50n)]);
    await a.store.network('BTC').connectBlocks([new ChainBuilder().add(p2pkh(3), 50n)]);
    assert.deepEqual(await a.store.applyRawTxMode('store'), { previous: null, deleted: 0 });
    assert.equal(await rawRows(a, 'tx_raws_ltc'), 2);
    assert.deepEqual(await a.store.applyRawTxMode('node'), { previous: 'store', deleted: 3 });
    assert.equal(await rawRows(a, 'tx_raws_ltc'), 0);
    assert.equal(await rawRows(a, 'tx_raws_btc'), 0);
    assert.equal((await a.store.network('LTC').getTransaction(chain.blocks[1]!.block.txs[0]!.txid))?.raw, null);
    assert.equal((await a.store.network('LTC').getAddressTotals(p2pkh(2))).confirmedBalance, 50n, 'everything else stays');
    assert.deepEqual(await a.store.applyRawTxMode('node'), { previous: 'node', deleted: 0 });
    assert.deepEqual(await a.store.applyRawTxMode('store'), { previous: 'node', deleted: 0 });
  }));
}
